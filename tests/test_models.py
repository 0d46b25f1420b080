"""Loading files: every error names the file, the field and the reason."""

from __future__ import annotations

import pytest

from support import BENCHMARK, write_yaml
from tuinaut.catalog import load_catalog
from tuinaut.errors import ConfigError
from tuinaut.fingerprints import fingerprint
from tuinaut.model import Evaluation
from tuinaut.model.loader import load

GOOD_TASK = {"assertions": [{"type": "check_screen", "text": "x"}], "reference": [{"press": "enter"}]}


def test_starter_benchmark_loads() -> None:
    catalog = load_catalog(BENCHMARK)
    assert {"nano", "mc", "htop"} <= set(catalog.apps)
    assert not catalog.problems


def test_malformed_yaml_names_file_and_line(tmp_path) -> None:
    path = tmp_path / "eval.yaml"
    path.write_text("apiVersion: tuinaut.dev/v1alpha1\nkind: [unclosed\n")
    with pytest.raises(ConfigError) as caught:
        load(Evaluation, path)
    assert caught.value.file == str(path) and "line" in (caught.value.field or "")
    assert "not valid YAML" in str(caught.value)


def test_unknown_field_is_rejected_by_name(tmp_path) -> None:
    path = write_yaml(tmp_path / "eval.yaml", {
        "apiVersion": "tuinaut.dev/v1alpha1", "kind": "Evaluation", "metadata": {"name": "x"},
        "spec": {"tasks": ["a/b"], "agents": [{"name": "r", "kind": "reference"}], "repeat": 3}})
    with pytest.raises(ConfigError) as caught:
        load(Evaluation, path)
    assert caught.value.field == "spec.repeat"
    assert "unknown field" in caught.value.reason


@pytest.mark.parametrize("spec, field, words", [
    ({"tasks": ["a/b"], "agents": [{"name": "r", "kind": "robot"}]}, "spec.agents[0].kind", "reference"),
    ({"tasks": ["nano"], "agents": [{"name": "r", "kind": "reference"}]}, "spec.tasks", "app/task"),
    ({"tasks": ["a/b"], "agents": [{"name": "r", "kind": "reference"}], "repeats": 0}, "spec.repeats", "greater"),
    ({"tasks": ["a/b"], "agents": [{"name": "r", "kind": "reference"}, {"name": "r", "kind": "noop"}]}, "spec", "unique"),
    ({"tasks": ["a/b"]}, "spec.agents", "missing"),
])
def test_evaluation_errors(tmp_path, spec, field, words) -> None:
    path = write_yaml(tmp_path / "eval.yaml", {"apiVersion": "tuinaut.dev/v1alpha1", "kind": "Evaluation",
                                               "metadata": {"name": "x"}, "spec": spec})
    with pytest.raises(ConfigError) as caught:
        load(Evaluation, path)
    assert caught.value.field == field
    assert words in str(caught.value)


def test_unknown_key_in_reference_path(bench) -> None:
    bench.app("demo", "cat")
    path = bench.task("demo", "t", assertions=GOOD_TASK["assertions"],
                      reference=[{"type": "hi"}, {"press": "ctrl+q"}, {"press": "entr"}])
    with pytest.raises(ConfigError) as caught:
        load_catalog(bench.root)
    assert caught.value.file == str(path)
    assert caught.value.field == "reference"
    assert "step 2" in caught.value.reason and "unknown key 'entr'" in caught.value.reason


def test_unknown_assertion_type(bench) -> None:
    bench.app("demo", "cat")
    bench.task("demo", "t", assertions=[{"type": "check_screen_color", "text": "x"}], reference=[{"press": "enter"}])
    with pytest.raises(ConfigError) as caught:
        load_catalog(bench.root)
    assert caught.value.field == "assertions[0]"
    assert "check_screen_color" in caught.value.reason


def test_assertion_needs_text_or_regex(bench) -> None:
    bench.app("demo", "cat")
    bench.task("demo", "t", assertions=[{"type": "check_screen", "text": "a", "regex": "b"}],
               reference=[{"press": "enter"}])
    with pytest.raises(ConfigError, match="exactly one of 'text' or 'regex'"):
        load_catalog(bench.root)


def test_task_id_must_match_directory(bench) -> None:
    bench.app("demo", "cat")
    path = bench.task("demo", "t", **GOOD_TASK)
    path.write_text(path.read_text().replace("id: t", "id: other"))
    with pytest.raises(ConfigError) as caught:
        load_catalog(bench.root)
    assert caught.value.field == "id"


def test_fingerprints_substituted_everywhere(bench) -> None:
    bench.app("demo", "cat")
    bench.task("demo", "t", fingerprints=["file", "word"],
               description="Save {{fp.file}}.txt with {{ fp.word }}",
               init="echo {{fp.word}} > seed", fixtures=[{"path": "{{fp.file}}.txt", "content": "{{fp.word}}"}],
               assertions=[{"type": "check_filesystem_content", "path": "~/{{fp.file}}.txt", "contains": "{{fp.word}}"}],
               reference=[{"type": "{{fp.word}}"}])
    package = load_catalog(bench.root).tasks["demo/t"]
    file, word = fingerprint("demo", "t", "file"), fingerprint("demo", "t", "word")
    assert package.tokens == {"file": file, "word": word}
    assert package.task.description == f"Save {file}.txt with {word}"
    assert package.task.init == f"echo {word} > seed"
    assert package.task.fixtures[0].path == f"{file}.txt" and package.task.fixtures[0].content == word
    assert package.task.assertions[0].contains == word
    assert package.task.reference[0].text == word


def test_fingerprint_is_stable_and_distinct() -> None:
    assert fingerprint("a", "b", "c") == fingerprint("a", "b", "c")
    assert fingerprint("a", "b", "c") != fingerprint("a", "b", "d")
    assert fingerprint("nano", "write-note", "file").startswith("fp") and len(fingerprint("x", "y", "z")) == 10


def test_undeclared_fingerprint_is_an_error(bench) -> None:
    bench.app("demo", "cat")
    bench.task("demo", "t", fingerprints=["file"], description="use {{fp.fiel}}", **GOOD_TASK)
    with pytest.raises(ConfigError) as caught:
        load_catalog(bench.root)
    assert caught.value.field == "description" and "fp.fiel" in caught.value.reason


def test_selector_matching_nothing_is_an_error(bench) -> None:
    from tuinaut.local.executor import plan_evaluation

    bench.app("demo", "cat")
    bench.task("demo", "t", **GOOD_TASK)
    path = bench.evaluation(tasks=["demo/*", "nope/*"])
    with pytest.raises(ConfigError) as caught:
        plan_evaluation(path, bench.root)
    assert caught.value.field == "spec.tasks" and "nope/*" in caught.value.reason


def test_a_broken_package_stops_only_runs_that_select_it(bench) -> None:
    from tuinaut.local.executor import plan_evaluation

    bench.app("demo", "cat")
    bench.task("demo", "t", **GOOD_TASK)
    bench.app("other", "cat")
    broken = bench.task("other", "half-written", description="")
    plan = plan_evaluation(bench.evaluation(tasks=["demo/*"]), bench.root)
    assert [a.package.id for a in plan.attempts] == ["demo/t"]
    with pytest.raises(ConfigError) as caught:
        plan_evaluation(bench.evaluation(name="all", tasks=["*/*"]), bench.root)
    assert caught.value.file == str(broken)
    (bench.root / "apps" / "other" / "app.yaml").unlink()
    with pytest.raises(ConfigError, match="file not found"):
        plan_evaluation(bench.evaluation(name="other", tasks=["other/t*"]), bench.root)


def test_validate_reports_shell_syntax_errors(bench) -> None:
    from tuinaut.validate import validate

    bench.app("demo", "cat")
    bench.task("demo", "t", init="if true; then echo x", reference=[{"press": "enter"}],
               assertions=[{"type": "check_shell", "command": "test -f a && (echo b"}])
    problems = validate(bench.root).problems
    assert len(problems) == 2
    assert "init: shell syntax error" in problems[0] and "assertions[0].command: shell syntax error" in problems[1]
