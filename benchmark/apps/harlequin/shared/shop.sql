CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL, email TEXT);
CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL NOT NULL, stock INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id),
                     product_id INTEGER REFERENCES products(id), qty INTEGER NOT NULL, status TEXT NOT NULL);
INSERT INTO customers VALUES
  (1, 'Ada Lovelace', 'UK', 'ada@example.org'), (2, 'Grace Hopper', 'USA', 'grace@example.org'),
  (3, 'Konrad Zuse', 'Germany', 'konrad@example.org'), (4, 'Emmy Noether', 'Germany', 'emmy@example.org'),
  (5, 'Alan Turing', 'UK', 'alan@example.org'), (6, 'Edsger Dijkstra', 'Netherlands', 'edsger@example.org');
INSERT INTO products VALUES
  (1, 'apple', 0.50, 100), (2, 'banana', 0.25, 150), (3, 'cherry', 3.00, 20), (4, 'durian', 7.50, 4),
  (5, 'elderberry', 2.20, 35), (6, 'fig', 1.10, 60), (7, 'grape', 1.95, 80);
INSERT INTO orders VALUES
  (1, 1, 1, 10, 'shipped'), (2, 2, 3, 2, 'cancelled'), (3, 3, 4, 1, 'pending'), (4, 4, 2, 12, 'shipped'),
  (5, 5, 5, 3, 'cancelled'), (6, 6, 6, 5, 'pending'), (7, 1, 7, 4, 'shipped'), (8, 3, 1, 6, 'cancelled');
