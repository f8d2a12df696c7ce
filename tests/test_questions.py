"""Questions declared once (engines/question.py) and the commands generated from them
(cli/questions.py): choices, "does not apply", modes, emitted files, printing, exit codes;
and CONTRIBUTING's worked example ("how to add a question") runs as written there."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from pyasp_games.cli.questions import add_questions
from pyasp_games.domains import DOMAINS, domain_spec
from pyasp_games.domains.cover.model import X3C, ThreeDM, as_x3c, parse_instance
from pyasp_games.domains.cover.questions import QUESTIONS as COVER_QUESTIONS
from pyasp_games.domains.cover.questions import SOLVE
from pyasp_games.engines.claim import Claim
from pyasp_games.engines.enforcement import enforced
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.question import MODES, Param, Question, checked_mode
from pyasp_games.engines.resources import instance_dir
from pyasp_games.errors import InputError

TINY = "6\n0 1 2\n3 4 5\n1 2 3\n0 1 4\n"


@pytest.fixture(autouse=True)
def _no_process_limits():
    """The commands run in this process: no memory cap nor alarm left on pytest and its
    children (as ``pyasp_games.cli.main(argv, enforce=False)`` runs a command)."""
    with enforced(False):
        yield


def _app(*questions: Question) -> typer.Typer:
    app = typer.Typer()
    app.callback()(lambda: None)  # a group, as the domains' command groups are
    add_questions(app, questions)
    return app


def _run(app: typer.Typer, *args: str) -> tuple[int, str, str]:
    try:
        result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    except InputError as err:  # pyasp_games.cli.main turns this into one line, exit 2
        return 2, "", str(err)
    return result.exit_code, result.stdout, result.stderr


def test_one_mode_vocabulary_everywhere():
    assert MODES == ("one", "all", "count")
    assert checked_mode("count") == "count"
    with pytest.raises(InputError, match="unknown mode 'first'"):
        checked_mode("first")
    inst = parse_instance(TINY)
    assert {SOLVE.ask(inst, b, mode="count").answer for b in SOLVE.backends} == {1}


def test_an_option_given_to_a_backend_it_does_not_apply_to_is_refused():
    inst = parse_instance(TINY)
    with pytest.raises(InputError, match="--solver applies to --backend sat only"):
        SOLVE.ask(inst, "dlx", solver="cadical195")
    with pytest.raises(InputError, match="--emit-lp applies to --backend asp only"):
        SOLVE.ask(inst, "sat", emit_lp=Path("x.lp"))
    # defaults fill what is not given, for the backend they apply to only
    assert SOLVE.backend_options("sat", {}, "one") == {
        "solver": "glucose4", "card": "auto", "mode": "one",
    }  # fmt: skip
    assert SOLVE.backend_options("dlx", {}, "all") == {"mode": "all"}


def test_the_generated_command(tmp_path):
    app = _app(*COVER_QUESTIONS)
    file = tmp_path / "tiny.txt"
    file.write_text(TINY)
    code, out, _ = _run(app, "solve", str(file), "-b", "sat", "--count", "--json")
    assert code == 0 and json.loads(out)["answer"] == 1
    code, out, _ = _run(app, "solve", str(file))
    assert code == 0 and out.splitlines()[1] == "  cover: 0 1"
    assert out.startswith("tiny: solved, an exact cover exists (dlx, ") and "verified)" in out
    assert _run(app, "solve", str(file), "-b", "dlx", "--card", "pairwise")[0] == 2
    assert _run(app, "solve", str(file), "--all", "--count")[0] == 2
    assert _run(app, "solve", str(file), "-b", "nope")[0] == 2  # not a choice
    # help: the backend choices from the table, each option says which backend it is for
    code, out, _ = _run(app, "solve", "--help")
    assert code == 0
    for text in ("dlx|asp|sat|bitset", "sat: the PySAT solver", "asp: write the program"):
        assert text in " ".join(out.split()).replace("│ ", "")


def test_an_emitted_file_is_written_by_the_backend_and_never_overwritten(tmp_path):
    app = _app(*COVER_QUESTIONS)
    file = tmp_path / "tiny.txt"
    file.write_text(TINY)
    lp, cnf = tmp_path / "x.lp", tmp_path / "x.cnf"
    assert _run(app, "solve", str(file), "-b", "asp", "--emit-lp", str(lp))[0] == 0
    assert "chosen" not in lp.read_text() and "% encoding:" in lp.read_text()
    assert _run(app, "solve", str(file), "-b", "asp", "--emit-lp", str(lp))[0] == 2
    assert _run(app, "solve", str(file), "-b", "sat", "--emit-cnf", str(cnf))[0] == 0
    assert cnf.read_text().startswith("c ") and "p cnf" in cnf.read_text()


def test_a_declaration_is_checked():
    with pytest.raises(ValueError, match="unknown backend"):
        Question(
            "q", "", backends={"native": lambda i, limits: None}, check=lambda i, o: (None, ""),
            read=str, describe=lambda i, o, opts: (None, []),
            params=(Param("solver", "--solver", backends=("sat",)),),
        )  # fmt: skip
    with pytest.raises(InputError, match="one mode only"):
        _hardest().ask(parse_instance(TINY), mode="all")


def test_every_domain_declares_its_questions():
    for name in DOMAINS:
        spec = domain_spec(name)
        assert spec.questions, f"{name} declares no questions"
        assert len({q.name for q in spec.questions}) == len(spec.questions)


# -- CONTRIBUTING.md's worked example, as written there ---------------------------------


def hardest_element(instance: X3C, limits) -> Claim:
    counts = [0] * instance.size
    for subset in instance.subsets:
        for e in subset:
            counts[e] += 1
    answer = min(range(instance.size), key=lambda e: (counts[e], e))
    return Claim.solved(answer, counts[answer])


def check_hardest(instance: X3C | ThreeDM, outcome: Outcome) -> tuple[bool | None, str]:
    if outcome.status != "solved":
        return None, "nothing to verify"
    x3c = as_x3c(instance)
    fewest = min(sum(e in s for s in x3c.subsets) for e in range(x3c.size))
    ok = sum(outcome.answer in s for s in x3c.subsets) == fewest
    return ok, f"element {outcome.answer} is in {fewest} subsets, the fewest"


def contributing_example() -> dict:
    """CONTRIBUTING.md's declaration, run as written there in the namespace of
    ``pyasp_games.domains.cover.questions`` (with the backend and checker of steps 1 and 2)."""
    import pyasp_games.domains.cover.questions as where

    text = (Path(__file__).parents[1] / "CONTRIBUTING.md").read_text()
    code = text.split("   ```python\n", 1)[1].split("   ```", 1)[0]
    namespace = {**vars(where), "hardest_element": hardest_element, "check_hardest": check_hardest}
    exec(textwrap.dedent(code), namespace)
    return namespace


def _hardest() -> Question:
    return contributing_example()["HARDEST"]


def test_contributings_worked_example_adds_a_command_in_one_domain(tmp_path, monkeypatch):
    from pyasp_games.cli import build_app

    example = contributing_example()
    hardest = example["HARDEST"]
    # the one change: cover's QUESTIONS (questions.py, re-exported by the package)
    monkeypatch.setattr("pyasp_games.domains.cover.questions.QUESTIONS", example["QUESTIONS"])
    monkeypatch.setattr("pyasp_games.domains.cover.QUESTIONS", example["QUESTIONS"])
    app = build_app("cover")  # the command line as pyasp_games.cli.main builds it
    assert hardest.domain == "cover"  # stamped by the domain whose spec lists it
    x3c = tmp_path / "tiny.txt"
    x3c.write_text(TINY)
    code, out, _ = _run(app, "cover", "hardest", str(x3c))
    assert code == 0, out
    assert out.startswith("tiny: solved, element 5 (native, ") and "verified)" in out
    code, out, _ = _run(app, "cover", "hardest", str(x3c), "--json")
    assert json.loads(out)["stats"]["verified"] is True
    assert _run(app, "cover", "hardest", str(x3c), "--time-limit", "nan")[0] == 2
    # "An X3C or 3DM instance", as its help says: a 3DM file is answered and verified
    matching = instance_dir("cover") / "matching-small.txt"
    code, out, _ = _run(app, "cover", "hardest", str(matching), "--json")
    assert code == 0, out
    assert json.loads(out)["stats"]["verified"] is True
    code, out, _ = _run(app, "cover", "hardest", "-h")
    assert code == 0 and "An X3C or 3DM instance" in out


def _declared() -> list[tuple[str, Question]]:
    """Every group's declared questions: each domain's (its DomainSpec), and those a tool
    group adds (its module's QUESTIONS)."""
    import importlib

    from pyasp_games.cli import TOOLS, groups

    pairs = []
    for group in groups():
        if group in DOMAINS:
            questions = domain_spec(group).questions
        else:
            questions = getattr(importlib.import_module(TOOLS[group]), "QUESTIONS", ())
        pairs += [(group, q) for q in questions]
    return pairs


@pytest.mark.parametrize("group, question", _declared(), ids=lambda x: getattr(x, "name", x))
def test_every_declared_question_is_a_command_whose_help_works(group, question):
    from pyasp_games.cli import build_app

    code, out, _ = _run(build_app(group), group, question.name, "-h")
    assert code == 0, out
    first = " ".join(question.help.splitlines()[0].split())
    assert first[:40] in " ".join(out.split()).replace("│ ", ""), out


def test_the_groups_are_the_registrys_domains_and_the_tools():
    from pyasp_games.cli import TOOLS, groups

    assert (*DOMAINS, *TOOLS) == groups()
    for name in DOMAINS:  # each question's domain is the one whose spec lists it
        assert {q.domain for q in domain_spec(name).questions} == {name}
