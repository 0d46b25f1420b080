"""The Kubernetes executor: kopf operator, Pod builder, metrics."""
