"""Turing machines (deterministic, nondeterministic, alternating): the file format, the
configurations and the one-step relation every part of the domain shares.

A machine file is TOML (``docs/machine.md`` describes it)::

    name = "flip"
    states = ["q0", "yes"]
    input = "01"           # the input alphabet (one character a symbol)
    tape = "01_"           # the tape alphabet: the input, the blank and work symbols
    blank = "_"
    start = "q0"
    accept = ["yes"]
    reject = []            # optional
    universal = []         # optional: the universal states (the others are existential)
    transitions = '''
    q0 0 -> q0 1 R         # STATE READ -> NEXT WRITE MOVE, MOVE one of L R S
    q0 _ -> yes _ S
    '''

    [[examples]]           # optional: words with their known answer (crosscheck reads them)
    word = "01"
    steps = 3
    known = true

The lecture notes' model (section 6): the tape starts at cell 1, the word is written
from cell 1 on, the head starts on cell 1; a move to the left on cell 1 stays there (the
notes leave it open). A configuration is the notes' ``xqy``: state ``q``, tape ``xy``
(trailing blanks dropped), the head on cell ``|x| + 1``; here ``(state, head, tape)``
with the head counted from 0. An accepting state halts and accepts, a rejecting one
halts and rejects; a configuration with no transition halts too: an existential one
rejects (no successor accepts), a universal one accepts (all of its none do: the notes'
definition read literally). Several transitions on one state and symbol make the
machine nondeterministic; universal states make it alternating.

>>> m = parse_machine(FLIP)
>>> m.kind, m.start, sorted(m.accept)
('deterministic', 'q0', ['yes'])
>>> c = initial(m, "01")
>>> format_config(m, c)
'[q0]01'
>>> [format_config(m, d) for _, d in successors(m, c)]
['1[q0]1']
"""

from __future__ import annotations

import itertools
import json
import random
import re
import tomllib
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyasp_games.engines.limits import Deadline
from pyasp_games.errors import InputError, checked_int, read_text

#: The most steps a question may ask for (the simulator's bound).
MAX_STEPS = 100_000
#: The most cells a tableau (steps + 1 rows of width cells) may have: the Cook-Levin
#: CNF and program, ALT(w) and Savitch's game refuse larger ones up front.
MAX_TABLEAU_CELLS = 40_000
#: The most states, tape symbols and transitions of a machine file.
MAX_STATES = 1_000
MAX_SYMBOLS = 64
MAX_TRANSITIONS = 10_000
#: The longest word.
MAX_WORD = 10_000

#: Head moves by their letter.
MOVES = {"L": -1, "S": 0, "R": 1}

#: A configuration: state, head (cell 1 is 0), tape (trailing blanks dropped).
Config = tuple[str, int, str]

FLIP = """
name = "flip"
states = ["q0", "yes"]
input = "01"
tape = "01_"
blank = "_"
start = "q0"
accept = ["yes"]
transitions = '''
q0 0 -> q0 1 R
q0 1 -> q0 0 R
q0 _ -> yes _ S
'''
"""


@dataclass(frozen=True)
class Transition:
    """``state read -> next write move``; ``move`` is -1, 0 or +1."""

    state: str
    read: str
    next: str
    write: str
    move: int

    def __str__(self) -> str:
        letter = {-1: "L", 0: "S", 1: "R"}[self.move]
        return f"{self.state} {self.read} -> {self.next} {self.write} {letter}"


@dataclass(frozen=True)
class Machine:
    """A Turing machine as its file declares it (see the module docstring)."""

    name: str
    states: tuple[str, ...]
    input: str
    tape: str
    blank: str
    start: str
    accept: frozenset[str]
    transitions: tuple[Transition, ...]
    reject: frozenset[str] = frozenset()
    universal: frozenset[str] = frozenset()
    description: str = ""
    examples: tuple[dict[str, Any], ...] = ()
    table: dict[tuple[str, str], tuple[int, ...]] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        table: dict[tuple[str, str], list[int]] = defaultdict(list)
        for i, t in enumerate(self.transitions):
            table[t.state, t.read].append(i)
        object.__setattr__(self, "table", {k: tuple(v) for k, v in table.items()})

    @property
    def kind(self) -> str:
        """``deterministic``, ``nondeterministic`` or ``alternating``."""
        if self.universal:
            return "alternating"
        if any(len(v) > 1 for v in self.table.values()):
            return "nondeterministic"
        return "deterministic"


@dataclass(frozen=True)
class Task:
    """The question's input: a machine, a word and a bound on the steps."""

    machine: Machine
    word: str
    steps: int
    name: str = "machine"
    known: bool | None = None
    #: the space bound (Savitch's game and ALT(w)): the head stays on the first cells
    space: int | None = None


def _fail(where: str, why: str) -> InputError:
    return InputError(f"{where}: {why}" if where else why)


_TRANSITION = re.compile(r"^(\S+)\s+(\S)\s*->\s*(\S+)\s+(\S)\s+([LRS])$")


def parse_machine(text: str, name: str = "machine", where: str = "") -> Machine:
    """A machine from the text of its file; a bad one is one :class:`InputError` line.

    >>> parse_machine(FLIP.replace("q0 _ -> yes", "q0 _ -> maybe"))
    Traceback (most recent call last):
    pyasp_games.errors.InputError: transition 'q0 _ -> maybe _ S' goes to the unknown state 'maybe' (states: q0, yes)
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise _fail(where, f"not a machine file (TOML: {err})") from None

    def strings(key: str, required: bool = True) -> list[str]:
        value = data.get(key)
        if value is None and not required:
            return []
        if not isinstance(value, list) or not all(isinstance(s, str) and s.strip() for s in value):
            raise _fail(where, f"'{key}' must be a list of names")
        return value

    def one(key: str) -> str:
        value = data.get(key)
        if not isinstance(value, str):
            raise _fail(where, f"'{key}' must be a string")
        return value

    known_keys = {"name", "description", "states", "input", "tape", "blank", "start", "accept",
                  "reject", "universal", "existential", "transitions", "examples"}  # fmt: skip
    unknown = sorted(set(data) - known_keys)
    if unknown:
        raise _fail(where, f"unknown key {unknown[0]!r} (keys: {', '.join(sorted(known_keys))})")
    states = strings("states")
    if len(set(states)) != len(states) or len(states) > MAX_STATES:
        raise _fail(where, f"'states' must name distinct states, at most {MAX_STATES:,}")
    if any(not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", s) for s in states):
        bad = next(s for s in states if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", s))
        raise _fail(where, f"state {bad!r}: a state is a letter then letters, digits or _")
    tape, inputs, blank = one("tape"), one("input"), one("blank")
    if len(set(tape)) != len(tape) or not 1 <= len(tape) <= MAX_SYMBOLS:
        raise _fail(where, f"'tape' must be 1 to {MAX_SYMBOLS} distinct characters")
    if any(c.isspace() or c in "[]" for c in tape):
        raise _fail(where, "'tape': a symbol is one visible character other than [ and ]")
    if len(blank) != 1 or blank not in tape:
        raise _fail(where, f"'blank' must be one symbol of the tape alphabet {tape!r}")
    if len(set(inputs)) != len(inputs) or not set(inputs) <= set(tape) or blank in inputs:
        raise _fail(where, f"'input' must be distinct symbols of the tape alphabet {tape!r}, not the blank")
    start = one("start")
    accept, reject = strings("accept", False), strings("reject", False)
    universal, existential = strings("universal", False), strings("existential", False)
    for key, names in (("start", [start]), ("accept", accept), ("reject", reject),
                       ("universal", universal), ("existential", existential)):  # fmt: skip
        for s in names:
            if s not in states:
                raise _fail(where, f"'{key}' names the unknown state {s!r} (states: {', '.join(states)})")
    if not accept:
        raise _fail(where, "no accepting state: 'accept' must name at least one state")
    if set(accept) & set(reject):
        raise _fail(where, f"state {sorted(set(accept) & set(reject))[0]!r} both accepts and rejects")
    if set(universal) & set(existential):
        raise _fail(where, f"state {sorted(set(universal) & set(existential))[0]!r} is both universal and existential")
    lines = data.get("transitions")
    if not isinstance(lines, str):
        raise _fail(where, "'transitions' must be a string of lines 'STATE READ -> NEXT WRITE MOVE'")
    transitions = []
    for raw in lines.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = _TRANSITION.match(line)
        if not m:
            raise _fail(where, f"transition {line!r}: expected 'STATE READ -> NEXT WRITE MOVE' (MOVE L, R or S)")
        t = Transition(m[1], m[2], m[3], m[4], MOVES[m[5]])
        for s in (t.state, t.next):
            if s not in states:
                raise _fail(where, f"transition {str(t)!r} goes to the unknown state {s!r} (states: {', '.join(states)})"
                            if s == t.next else f"transition {str(t)!r} leaves the unknown state {s!r} (states: {', '.join(states)})")
        for c in (t.read, t.write):
            if c not in tape:
                raise _fail(where, f"transition {str(t)!r}: the symbol {c!r} is not in the tape alphabet {tape!r}")
        if t.state in accept or t.state in reject:
            raise _fail(where, f"transition {str(t)!r} leaves a halting state (accepting and rejecting states halt)")
        transitions.append(t)
    if len(transitions) > MAX_TRANSITIONS:
        raise _fail(where, f"{len(transitions):,} transitions: beyond this tool's limit of {MAX_TRANSITIONS:,}")
    if len(set(transitions)) != len(transitions):
        raise _fail(where, "a transition is written twice")
    examples = data.get("examples", [])
    if not isinstance(examples, list) or not all(isinstance(e, dict) for e in examples):
        raise _fail(where, "'examples' must be a list of tables [[examples]]")
    description = data.get("description", "")
    machine = Machine(
        str(data.get("name", name)), tuple(states), inputs, tape, blank, start, frozenset(accept),
        tuple(transitions), frozenset(reject), frozenset(universal), str(description), tuple(examples),
    )  # fmt: skip
    for e in examples:
        if set(e) - {"word", "steps", "known"} or not isinstance(e.get("word"), str):
            raise _fail(where, "an example is a table of word (a string), steps (an integer) and known (true/false)")
        try:
            checked_word(machine, e["word"])
            checked_steps(e.get("steps", 0))
        except InputError as err:
            raise _fail(where, f"an example: {err}") from None
        if not isinstance(e.get("known"), (bool, type(None))):
            raise _fail(where, "an example's 'known' must be true or false")
    return machine


def load_machine(path: Path | str) -> Machine:
    """Read a machine file; errors name the file."""
    path = Path(path)
    return parse_machine(read_text(path), path.stem, str(path))


def checked_word(machine: Machine, word: str) -> str:
    """``word`` if every symbol is in the input alphabet, else one :class:`InputError` line.

    >>> checked_word(parse_machine(FLIP), "012")
    Traceback (most recent call last):
    pyasp_games.errors.InputError: the word '012': the symbol '2' (position 3) is not in the input alphabet '01'
    """
    if not isinstance(word, str):
        raise InputError("the word must be a string")
    if len(word) > MAX_WORD:
        raise InputError(f"a word of {len(word):,} symbols: beyond this tool's limit of {MAX_WORD:,}")
    for i, c in enumerate(word):
        if c not in machine.input:
            raise InputError(f"the word {word!r}: the symbol {c!r} (position {i + 1}) is not in the input alphabet {machine.input!r}")
    return word


def checked_steps(steps: Any) -> int:
    """A bound on the steps, 0 to :data:`MAX_STEPS`."""
    if isinstance(steps, bool) or not isinstance(steps, int):
        raise InputError(f"--steps must be an integer from 0 to {MAX_STEPS:,}, got {steps!r}")
    return checked_int(steps, "--steps", 0, MAX_STEPS)


def default_steps(word: str) -> int:
    """The bound when none is given: ``(|w| + 1)^2 + 10`` (room for the quadratic
    machines of a course; the Cook-Levin tableau stays within its limit up to 12
    symbols).

    >>> default_steps("0110")
    35
    """
    return min((len(word) + 1) ** 2 + 10, MAX_STEPS)


def read_task(machine: Path | str, word: str | None = None, steps: int | None = None) -> Task:
    """The question's input read: the machine file, the word (``-``: the empty word;
    none: the word of the file's first example, with its bound, if it has one) and the
    bound on the steps (default: the example's, else :func:`default_steps`)."""
    m = load_machine(machine)
    if word is None and m.examples:
        word = m.examples[0]["word"]
        steps = m.examples[0].get("steps") if steps is None else steps
    word = "" if word in (None, "-") else word
    checked_word(m, word)
    steps = default_steps(word) if steps is None else checked_steps(steps)
    return Task(m, word, steps, f"{m.name}:{word or '-'}")


def load_instances(path: Path) -> list[Task]:
    """The examples of a machine file, one task each (crosscheck's loader)."""
    m = load_machine(path)
    return [Task(m, e["word"], e.get("steps", default_steps(e["word"])),
                 f"{m.name}:{e['word'] or '-'}", e.get("known")) for e in m.examples]  # fmt: skip


# -- configurations and the one-step relation -------------------------------------------


def initial(machine: Machine, word: str) -> Config:
    """The notes' ``q0 w``: the start state, the head on cell 1, ``w`` from cell 1 on."""
    return (machine.start, 0, word.rstrip(machine.blank))


def symbol(machine: Machine, config: Config, cell: int) -> str:
    """The symbol on ``cell`` (0-based) of ``config``."""
    tape = config[2]
    return tape[cell] if cell < len(tape) else machine.blank


def successors(machine: Machine, config: Config, width: int | None = None) -> list[tuple[int, Config]]:
    """The configurations one step from ``config``, with the index of the transition
    taken. None from a halting state; with ``width``, none whose head leaves the first
    ``width`` cells (a space bound)."""
    state, head, tape = config
    if state in machine.accept or state in machine.reject:
        return []
    read = symbol(machine, config, head)
    out = []
    for i in machine.table.get((state, read), ()):
        t = machine.transitions[i]
        cells = tape.ljust(head + 1, machine.blank)
        cells = (cells[:head] + t.write + cells[head + 1:]).rstrip(machine.blank)
        moved = max(0, head + t.move)
        if width is not None and moved >= width:
            continue
        out.append((i, (t.next, moved, cells)))
    return out


def reachable(machine: Machine, start: Config, steps: int, deadline: Deadline | None = None,
              width: int | None = None) -> tuple[dict[Config, int], dict[Config, tuple[Config, ...]]]:  # fmt: skip
    """The configurations reachable from ``start`` within ``steps`` steps with their
    least depth, and the successors of each (breadth first; with ``width``, a space bound).

    >>> depth, _ = reachable(parse_machine(FLIP), ("q0", 0, "01"), 2)
    >>> sorted(depth.values())
    [0, 1, 2]
    """
    depth = {start: 0}
    succ: dict[Config, tuple[Config, ...]] = {}
    layer = [start]
    for d in range(steps + 1):  # the last layer's successors too (a universal dead end)
        following = []
        for c in layer:
            if deadline is not None and len(depth) % 1024 == 0:
                deadline.check()
            nexts = tuple(dict.fromkeys(n for _, n in successors(machine, c, width)))
            succ[c] = nexts
            for n in nexts if d < steps else ():
                if n not in depth:
                    depth[n] = d + 1
                    following.append(n)
        layer = following
        if not layer:
            break
    return depth, succ


def strategy_of(m: Machine, start: Config, succ: dict[Config, tuple[Config, ...]],
                rank: dict[Config, int]) -> dict[str, str]:  # fmt: skip
    """The existential player's choices on the configurations its strategy meets: in each,
    a successor of least rank (so every play reaches acceptance within the rank)."""
    chosen: dict[str, str] = {}
    seen, todo = {start}, [start]
    while todo:
        c = todo.pop()
        if accepting(m, c) or not succ.get(c):
            continue
        if c[0] in m.universal:
            nexts = list(succ[c])
        else:
            best = min((n for n in succ[c] if n in rank), key=rank.__getitem__)
            chosen[format_config(m, c)] = format_config(m, best)
            nexts = [best]
        for n in nexts:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return chosen


def run_of(m: Machine, start: Config, succ: dict[Config, tuple[Config, ...]],
           rank: dict[Config, int]) -> list[str]:  # fmt: skip
    """An accepting run down the ranks of a least fixpoint (each step one stage closer):
    the configurations from ``start`` to an accepting one."""
    run, c = [start], start
    while not accepting(m, c):
        c = min((n for n in succ[c] if n in rank), key=rank.__getitem__)
        run.append(c)
    return [format_config(m, x) for x in run]


def accepting(machine: Machine, config: Config) -> bool:
    """Whether ``config`` is in an accepting state."""
    return config[0] in machine.accept


def format_config(machine: Machine, config: Config) -> str:
    """The notes' ``xqy``: the tape with ``[q]`` before the cell the head is on.

    >>> m = parse_machine(FLIP)
    >>> format_config(m, ("q0", 3, "10"))
    '10_[q0]_'
    """
    state, head, tape = config
    cells = tape.ljust(head + 1, machine.blank)
    return f"{cells[:head]}[{state}]{cells[head:]}"


def parse_config(machine: Machine, text: Any) -> Config:
    """A configuration as :func:`format_config` writes it; bad text is :class:`InputError`."""
    m = re.fullmatch(r"([^\[\]]*)\[([A-Za-z][A-Za-z0-9_]*)\]([^\[\]]*)", str(text))
    if not m or m[2] not in machine.states or any(c not in machine.tape for c in m[1] + m[3]):
        raise InputError(f"not a configuration of {machine.name}: {text!r}")
    return (m[2], len(m[1]), (m[1] + m[3]).rstrip(machine.blank))


def tableau_size(task: Task) -> tuple[int, int]:
    """The rows and columns of the tableau of ``task``: ``steps + 1`` rows of
    ``max(|word|, steps + 1)`` cells (the head moves at most one cell a step)."""
    return task.steps + 1, max(len(task.word), task.steps + 1)


def checked_tableau(task: Task, what: str) -> tuple[int, int]:
    """The tableau's size, or an :class:`InputError` naming it beyond :data:`MAX_TABLEAU_CELLS`."""
    rows, width = tableau_size(task)
    if rows * width > MAX_TABLEAU_CELLS:
        raise InputError(
            f"{what}: the tableau of {task.steps:,} steps on a word of {len(task.word):,} symbols "
            f"is {rows:,} x {width:,} = {rows * width:,} cells, beyond this tool's limit of "
            f"{MAX_TABLEAU_CELLS:,}"
        )
    return rows, width


# -- generators ----------------------------------------------------------------------------


def random_task(seed: int = 0, states: int = 3, symbols: int = 2, transitions: int = 8,
                length: int = 3, steps: int = 8) -> Task:  # fmt: skip
    """A random nondeterministic machine (``states`` working states plus ``yes``,
    ``symbols`` input symbols plus the blank, ``transitions`` random transitions) on a
    random word of ``length`` symbols (bench's generator ``random``).

    >>> t = random_task(seed=1)
    >>> t.machine.kind in ("deterministic", "nondeterministic"), len(t.word), t.steps
    (True, 3, 8)
    """
    states = checked_int(states, "states", 1, 50)
    symbols = checked_int(symbols, "symbols", 1, 10)
    transitions = checked_int(transitions, "transitions", 0, 500)
    length = checked_int(length, "length", 0, 100)
    steps = checked_int(steps, "steps", 0, 200)
    rng = random.Random(checked_int(seed, "seed"))
    names = [f"q{i}" for i in range(states)]
    alphabet = "abcdefghij"[:symbols]
    tape = alphabet + "_"
    lines = set()
    for _ in range(transitions):
        lines.add(f"{rng.choice(names)} {rng.choice(tape)} -> {rng.choice([*names, 'yes'])} "
                  f"{rng.choice(tape)} {rng.choice('LRS')}")  # fmt: skip
    text = (f'name = "random-{seed}"\nstates = {json.dumps([*names, "yes"])}\n'
            f'input = "{alphabet}"\ntape = "{tape}"\nblank = "_"\nstart = "q0"\n'
            f'accept = ["yes"]\ntransitions = """\n' + "\n".join(sorted(lines)) + '\n"""\n')
    m = parse_machine(text, f"random-{seed}")
    word = "".join(rng.choice(alphabet) for _ in range(length))
    return Task(m, word, steps, f"random-{seed}:{word or '-'}")


def format_machine(machine: Machine) -> str:
    """The machine as the text of its file (examples left out)."""
    lines = [f"name = {json.dumps(machine.name)}", f"states = {json.dumps(list(machine.states))}",
             f'input = "{machine.input}"', f'tape = "{machine.tape}"', f'blank = "{machine.blank}"',
             f'start = "{machine.start}"',
             "accept = [" + ", ".join(f'"{s}"' for s in sorted(machine.accept)) + "]"]  # fmt: skip
    if machine.reject:
        lines.append("reject = [" + ", ".join(f'"{s}"' for s in sorted(machine.reject)) + "]")
    if machine.universal:
        lines.append("universal = [" + ", ".join(f'"{s}"' for s in sorted(machine.universal)) + "]")
    lines.append("transitions = '''\n" + "\n".join(map(str, machine.transitions)) + "\n'''")
    return "\n".join(lines) + "\n"


def format_task(task: Task) -> str:
    """The task as a machine file with the word and the bound as its one example."""
    known = "" if task.known is None else f"known = {str(task.known).lower()}\n"
    return (format_machine(task.machine) + f"\n[[examples]]\nword = {json.dumps(task.word)}\n"
            f"steps = {task.steps}\n" + known)  # fmt: skip


def small_tasks() -> Iterator[Task]:
    """The bundled machines on every word of up to 2 symbols, bounds 0 to 4 (fuzz's
    small scope)."""
    from pyasp_games.engines.resources import instance_dir

    folder = instance_dir("machine")
    for name in ("palindrome", "increment", "third-last"):  # the tableau: one run
        m = load_machine(folder / f"{name}.toml")
        for size in range(3):
            for letters in itertools.product(m.input, repeat=size):
                word = "".join(letters)
                for steps in range(5):
                    yield Task(m, word, steps, f"{m.name}:{word or '-'}:{steps}")


def strategy(size: int) -> Any:
    """A hypothesis strategy of tasks: random machines of at most ``size`` transitions
    (fuzz's random phase)."""
    from hypothesis import strategies as st

    return st.builds(
        lambda seed, n, length, steps: random_task(seed, 2, 2, n, length, steps),
        st.integers(0, 10**6), st.integers(0, max(size, 0)), st.integers(0, 3), st.integers(0, 6),
    )  # fmt: skip
