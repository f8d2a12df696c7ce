"""Tests users keep: fuzz's counterexamples as regression cases, replayed without the
reference (``fuzz --export DIR``, ``pyasp-games test-encoding DIR --encoding FILE``).

A *case* is two files in a folder: the instance, as an ordinary instance file of its
domain (``NAME.txt``), and what it must answer (``NAME.expect.json``: the domain, the
question, the mode and fixed options it was asked in, and the reference's verified
answer, status and witness). :func:`export` writes one from a fuzz failure;
:func:`replay` answers every case of a folder with an encoding, checks each witness with
the domain's checker and compares each answer with the recorded one by the question's
rule of agreement (:meth:`~pyasp_games.engines.question.Question.relation`): no
reference backend runs, so a fixed bug stays fixed in the user's own CI, in the manner of
ASP unit testing (Amendola, Berei, Mazzotta, Ricca, TPLP 2024).

>>> import tempfile
>>> from pyasp_games.domains import domain_spec
>>> from pyasp_games.tools.fuzz import fuzz
>>> folder = Path(tempfile.mkdtemp())
>>> report = fuzz(domain_spec("cover"), encoding="tests/fuzz_encodings/cover-at-most-three.lp",
...               runs=1, export=folder)
>>> sorted(p.name for p in folder.iterdir())
['cover-solve-x3c-case.expect.json', 'cover-solve-x3c-case.txt']
>>> [(c.status, c.name) for c in replay(folder, "tests/fuzz_encodings/cover-at-most-three.lp")]
[('failed', 'cover-solve-x3c-case')]
>>> [c.status for c in replay(folder, "x3c")]
['ok']
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyasp_games.engines.files import write_new, write_text
from pyasp_games.engines.limits import Limits
from pyasp_games.engines.outcome import Outcome
from pyasp_games.engines.resources import ENCODING
from pyasp_games.errors import InputError, read_text

#: What a case's answer file ends in.
EXPECT = ".expect.json"


def export(folder: Path, domain: str, question: str, family: str, mode: str | None,
           fixed: dict[str, Any], instance_text: str, reference: Outcome) -> Path:  # fmt: skip
    """Write one case (the instance, and the reference's verified answer) into
    ``folder``, never over a file; the instance file's path."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{domain}-{question}-{family}-case"
    plain = reference.to_dict()
    expect: dict[str, Any] = {
        "domain": domain,
        "question": question,
        "mode": mode,
        "options": {k: v for k, v in fixed.items() if k not in (ENCODING, "mode")},
        "status": reference.status,
        "answer": plain["answer"],
        "witness": plain["witness"],
        "stats": {k: v for k, v in plain["stats"].items() if k in ("kind", "bounded", "optimal")},
        "reference": reference.backend,
    }
    # the answer as --json writes it (a value of a matrix game, a Fraction: "7/12"), the
    # way replay reads the tested answer; said before any file is written, so that no
    # case is left without its answer file
    json.dumps(expect, default=str)
    path = write_new(folder, stem, instance_text)
    expect["instance"] = path.name
    write_text(path.with_name(path.stem + EXPECT), json.dumps(expect, indent=2, default=str) + "\n")
    return path


@dataclass
class CaseResult:
    """One replayed case: ``ok``, ``failed`` (why), ``unknown`` (a limit reached)."""

    name: str
    status: str
    why: str
    tested: Outcome | None = None


def cases(folder: Path) -> list[Path]:
    """The answer files of a folder of cases, in name order (bad input when none)."""
    if not folder.is_dir():
        raise InputError(f"{folder}: not a folder of cases")
    found = sorted(folder.glob(f"*{EXPECT}"))
    if not found:
        raise InputError(f"{folder}: no regression cases (*{EXPECT}) in it")
    return found


#: The keys every case's answer file has (:func:`export` writes them), and what each holds.
CASE_KEYS = {"domain": str, "question": str, "instance": str, "status": str, "answer": object}
#: The keys a case may have, and what each holds.
OPTIONAL_KEYS = {"mode": (str, type(None)), "options": dict, "stats": dict, "reference": str}


def read_case(path: Path) -> dict[str, Any]:
    """The answer file of a case, its keys checked: bad input names the file and the key."""
    from pyasp_games.domains import DOMAINS
    from pyasp_games.engines.files import parse_json

    expect = parse_json(read_text(path), str(path))
    if not isinstance(expect, dict):
        raise InputError(f"{path}: not a regression case (a JSON object with the keys "
                         f"{', '.join(CASE_KEYS)}), but a JSON {type(expect).__name__}")  # fmt: skip
    for key, kind in {**CASE_KEYS, **OPTIONAL_KEYS}.items():
        if key not in expect:
            if key in CASE_KEYS:
                raise InputError(f"{path}: not a regression case: the key {key!r} is missing "
                                 f"(a case has {', '.join(CASE_KEYS)})")  # fmt: skip
        elif not isinstance(expect[key], kind):
            raise InputError(f"{path}: the key {key!r} holds {json.dumps(expect[key])[:40]}, "
                             f"not a {getattr(kind, '__name__', 'string')}")  # fmt: skip
    if expect["domain"] not in DOMAINS:
        raise InputError(f"{path}: unknown domain {expect['domain']!r} "
                         f"(choose from {', '.join(DOMAINS)})")  # fmt: skip
    if Path(expect["instance"]).name != expect["instance"] or expect["instance"] in ("", ".", ".."):
        raise InputError(f"{path}: the key 'instance' names {expect['instance']!r}, not a file "
                         "beside it")  # fmt: skip
    return expect


def replay(folder: Path, encoding: str, time_limit: float | None = 10.0,
           backend: str | None = None) -> list[CaseResult]:  # fmt: skip
    """Answer every case of ``folder`` with ``encoding`` (no reference runs)."""
    from pyasp_games.domains import domain_spec
    from pyasp_games.engines.question import find_question
    from pyasp_games.tools.fuzz.report import said

    results = []
    for path in cases(folder):
        name = path.name[: -len(EXPECT)]
        expect = read_case(path)
        spec = domain_spec(expect["domain"])
        try:
            q = find_question(spec.questions, expect["question"])
        except InputError as err:
            raise InputError(f"{path}: {err}") from None
        instances = list(spec.load_file(path.with_name(expect["instance"])))
        if len(instances) != 1:
            raise InputError(f"{path}: its instance file {expect['instance']} holds "
                             f"{len(instances)} instances, a case one")  # fmt: skip
        instance = instances[0]
        chosen = backend or spec.encoding_backend or q.encoding.backends[0]
        mode = expect.get("mode")
        options = {**q.fixed, **q.backend_options(chosen, {ENCODING: encoding}, mode),
                   **expect.get("options", {})}  # fmt: skip
        tested = q.solve(instance, chosen, Limits(time_limit=time_limit), trust_encoding=True,
                         **options)  # fmt: skip
        recorded = Outcome.from_dict({"problem": name, "status": expect["status"],
                                      "backend": expect.get("reference", "reference"),
                                      "answer": expect["answer"],
                                      "stats": dict(expect.get("stats", {}))})  # fmt: skip
        if tested.verdict.failed:
            results.append(CaseResult(name, "failed", f"fails verification: {tested.verdict.message}", tested))
            continue
        if tested.status not in ("solved", "no-solution"):
            why = tested.stats.get("error") or tested.stats.get("limit") or tested.status
            status = "unknown" if tested.status == "unknown" else "failed"
            results.append(CaseResult(name, status, str(why), tested))
            continue
        # the answer as JSON holds it, as the case's was recorded
        plain = json.loads(json.dumps(tested.to_dict(), default=str))
        tested_plain = Outcome.from_dict({**plain, "problem": name, "backend": chosen,
                                          "witness": None})  # fmt: skip
        from pyasp_games.engines.agreement import Relation

        relation = q.relation(tested_plain, recorded)
        if relation is Relation.DIFFERS:
            results.append(CaseResult(name, "failed", f"answers {said(tested)}, the case "
                                      f"expects {said(recorded)}", tested))  # fmt: skip
        else:
            results.append(CaseResult(name, "ok", relation.value, tested))
    return results


def interface_notes(folder: Path, encoding: str) -> list[str]:
    """What ``encoding`` does not handle of the interface of each domain the cases of
    ``folder`` are about (:func:`pyasp_games.engines.interface.check`): an older version
    it declares, the inputs it never reads; ``[]`` for a bundled encoding's name."""
    from pyasp_games.engines.interface import check
    from pyasp_games.engines.resources import encoding_path, user_encoding

    notes: list[str] = []
    for domain in dict.fromkeys(read_case(path)["domain"] for path in cases(folder)):
        if user_encoding(domain, encoding):
            notes += check(domain, encoding_path(domain, encoding))
    return notes


def exit_code(results: list[CaseResult]) -> int:
    """1 when a case failed, 3 when one reached its limit, else 0."""
    if any(r.status == "failed" for r in results):
        return 1
    return 3 if any(r.status == "unknown" for r in results) else 0
