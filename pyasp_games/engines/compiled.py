"""Compiled kernels: numba, imported only when a search outgrows its first milliseconds.

The inner loops of a few native searches (Algorithm X for ``cover``, the pattern-database
build and IDA* for ``puzzle``) are *kernels*: functions marked :func:`kernel`, in the
subset of Python that numba compiles, run a slice at a time by :func:`run_sliced` (which
reads the deadline between slices and compiles them, :func:`compile_kernels`, only when
a search outlasts :data:`INTERPRETED_SECONDS`).

>>> calls = []
>>> def count_to_ten(budget):
...     calls.append(budget)
...     return sum(calls) >= 10
>>> run_sliced(count_to_ten, None, first=4)
>>> sum(calls) >= 10, calls[0]
(True, 4)

Notes
-----
These loops decide how much of a user's work can be checked in time. Why numba and
not a compiled library: no maintained package does these searches under our
limits (a deadline read between slices, statistics counted, the search resumed
where it stopped). ``miniexact`` (BSD, C) runs Algorithm X as fast as our kernel
but cannot be stopped before its next cover, the other exact-cover packages are GPL
(``exact-cover``) or numba themselves (``xcover``), and nothing on PyPI builds
additive pattern databases. numba ships prebuilt wheels for every platform numpy
does, so installing stays one ``pip install``; the measurements (install time,
start-up, each kernel against its pure-Python predecessor and its peers) are in
``benchmarks/RESULTS.md``.

Five rules make the kernels behave like every other backend:

- **A kernel is plain Python until it is worth compiling.** :func:`kernel` marks a
  function of a kernel module and returns it unchanged; :func:`run_sliced` runs a
  search's first :data:`INTERPRETED_SECONDS` with that Python source (on Python
  lists, where the module's driver allows it: not even numpy is imported), and only
  a search still running then calls :func:`compile_kernels`, which imports numpy and
  numba (0.3 s of CPU) and rebinds the module's kernels to their compiled versions
  (0.05 s more to load their cached machine code). A search that can
  estimate its size (``expected``: Knuth's estimate of a backtrack tree, for
  Algorithm X) is compiled as soon as its first slices show that it would outlast
  :data:`INTERPRETED_SECONDS` at their speed: it pays the load, not the load and
  the rent. A command on a small instance (``cover solve tiny-cover.txt``)
  therefore loads neither, and there is still one implementation: the compiled code
  is this code.
- **Compiling is the tool's cost, searching the user's.** :func:`compile_kernels`
  lifts the memory cap while numba loads and the module's ``warm_up()`` compiles
  (or loads) every kernel on a tiny input with the argument types of the real
  calls; the search then runs under the cap again. numba's first load imports what
  no kernel here uses (:data:`UNUSED_BY_KERNELS`): those imports are refused while
  it loads, and a cached kernel is loaded without the rest of numba's compiler
  (:func:`_light_loads`).
- **Compiled code is cached wherever that is possible, and never needed.** The
  machine code is written to numba's cache (``cache=True``): beside the module in
  ``__pycache__`` when that folder is writable (a checkout, a user's venv), else in
  the user's cache folder (``$XDG_CACHE_HOME/numba`` or ``~/.cache/numba``: numba's
  own fallback for a package installed read-only), or where ``NUMBA_CACHE_DIR`` says.
  Where nothing can be written, the kernels are compiled in memory in each process:
  slower to start (about 2 s of CPU per module), never an error. numba keys a kernel's
  cached code by its own bytecode and its own file; the code also holds its callees'
  code and the constants it reads, so the key here adds their digest
  (:func:`code_digest`): a change in another module is compiled anew, not loaded stale.
- **A kernel runs in slices.** Compiled code cannot look at the clock nor be
  interrupted by a signal, so a kernel keeps its whole state in arrays, runs at
  most ``budget`` steps per call and returns; :func:`run_sliced` calls it again
  until it is done, reading the :class:`~pyasp_games.engines.limits.Deadline`
  between slices and sizing them so that one takes about :data:`SLICE_SECONDS`.
- **Kernels allocate nothing unbounded.** Their arrays are allocated in Python
  before the call, so a memory cap fails there, as :class:`MemoryError`.

A kernel module that sets ``MACHINE_CODE = True`` (``cover``'s dancing links) has its
kernels' machine code kept once numba has compiled them, and later processes load it
without numba or numpy (:mod:`pyasp_games.engines.machine_code`: 0.05 s of CPU instead
of 0.3 s); its driver then hands the kernels ``array('q')`` arrays
(:func:`int64_array`) and compiles after :data:`KEPT_SECONDS` of interpreted search.

A few kernels serve several kernel modules (:func:`shared_kernel`: the bit kernels
:func:`bit_index` and :func:`bit_count` of Hex's connection search and of Kayles'
component search). A module imports them as any name, and :func:`compile_kernels`
compiles them with that module's own kernels (a kernel calls the compiled function its
module's name is bound to when it compiles): one source, a compiled copy per module,
the same machine code in numba's cache.
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import CodeType, FunctionType, ModuleType
from typing import Any, TypeVar

from pyasp_games.engines.enforcement import uncapped
from pyasp_games.engines.limits import Deadline, LimitReached

#: Wall seconds a slice of a compiled kernel aims at: the deadline is read at least
#: this often (and a limit is overrun by at most about this much).
SLICE_SECONDS = 0.02

#: CPU seconds a search runs interpreted before its module is compiled: about what
#: loading numpy, numba and the kernels' cached machine code costs (0.08 + 0.22 + 0.05
#: s; it was 0.25 + 0.3 s before :data:`UNUSED_BY_KERNELS` and :func:`_light_loads`), so
#: that, as in renting skis before buying, no search spends more than about twice what
#: it would have spent compiled from its start, and a search done within it never loads
#: numba at all. (CPU, not wall, seconds: on a loaded machine both costs stretch alike.)
INTERPRETED_SECONDS = 0.35

#: CPU seconds a search runs interpreted before its module is compiled when the module's
#: machine code is kept from an earlier process (:mod:`~pyasp_games.engines.machine_code`):
#: loading it costs about 0.05 s of CPU (llvmlite and the object code; no numba, no numpy),
#: so the rent stops at about that price too.
KEPT_SECONDS = 0.05

#: Modules numba imports when it loads its first kernel only to offer what no kernel
#: here uses: scipy (numba checks its version at import: 0.012 s) and its BLAS
#: (``numba.np.arraymath`` checks for it at import, for ``np.dot`` of vectors:
#: importing ``scipy.linalg`` costs about 0.22 s of CPU), and cffi's C parser (for cffi
#: functions called from kernels, about 0.04 s). Refused while :func:`compile_kernels`
#: loads numba unless the process imported them already; numba then computes a dot
#: product of vectors with its own loop (the same result), and a later ``import
#: scipy.linalg`` or ``import cffi`` works as ever.
UNUSED_BY_KERNELS = ("scipy", "scipy.linalg.cython_blas", "cffi")

#: The most steps one slice may run, whatever the measured speed.
MAX_BUDGET = 1 << 40

#: The kernels of each kernel module, in the order they are defined (then the shared
#: kernels it imports, once it is compiled).
_KERNELS: dict[str, list[str]] = {}
#: The kernels that several kernel modules import (:func:`shared_kernel`).
_SHARED: set[Callable[..., Any]] = set()
#: The kernel modules compiled in this process.
_COMPILED: set[str] = set()
#: Those of them whose kernels run machine code kept by an earlier process, loaded
#: without numba (:mod:`pyasp_games.engines.machine_code`): their arrays are
#: ``array.array``, not numpy's (:func:`int64_array`).
_MACHINE_CODE: set[str] = set()

F = TypeVar("F", bound=Callable[..., Any])


def kernel(function: F) -> F:
    """Mark ``function`` as a kernel of its module (returned unchanged; see the module doc)."""
    names = _KERNELS.setdefault(function.__module__, [])
    if function.__name__ not in names:  # (a module imported again)
        names.append(function.__name__)
    return function


def shared_kernel(function: F) -> F:
    """Mark ``function`` as a kernel that kernel modules import (returned unchanged):
    :func:`compile_kernels` compiles it with the kernels of each module that imports it,
    and counts it among them (:data:`_KERNELS`), so that module's kernels call it
    compiled, and running them interpreted again binds its source again."""
    _SHARED.add(function)
    return function


@shared_kernel
def bit_index(b: int) -> int:
    """The position of the single bit ``b`` (a kernel; ``b.bit_length() - 1``).

    >>> bit_index(1), bit_index(1 << 40), bit_index(1 << 61)
    (0, 40, 61)
    """
    i = 0
    if b >= 1 << 32:
        b >>= 32
        i += 32
    if b >= 1 << 16:
        b >>= 16
        i += 16
    if b >= 1 << 8:
        b >>= 8
        i += 8
    while b > 1:
        b >>= 1
        i += 1
    return i


@shared_kernel
def bit_count(x: int) -> int:
    """The number of bits set in ``x`` (a kernel; ``x.bit_count()``).

    >>> bit_count(0), bit_count(0b1011), bit_count((1 << 62) - 1)
    (0, 3, 62)
    """
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


def int64_array(values: list[int], module: str) -> Any:
    """``values`` as an array of 64-bit integers that the compiled kernels of ``module``
    take: ``array('q')`` for kept machine code (numpy is not imported), else numpy's.

    >>> int64_array([1, 2], "no.such.module").tolist()
    [1, 2]
    """
    if module in _MACHINE_CODE:
        from array import array

        return array("q", values)
    import numpy as np

    return np.array(values, dtype=np.int64)


def is_compiled(module: str) -> bool:
    """Whether the kernels of ``module`` (a module's ``__name__``) run compiled in this process."""
    return module in _COMPILED


def _names(module: str) -> list[str]:
    """The kernels of ``module``: its own, then the shared kernels it imports."""
    namespace = sys.modules[module]
    names = _KERNELS.setdefault(module, [])
    for name, value in list(vars(namespace).items()):
        if isinstance(value, FunctionType) and value in _SHARED and name not in names:
            names.append(name)
    return names


def compile_kernels(module: str) -> None:
    """Rebind every kernel of ``module`` to its numba-compiled version (once per process).

    A module with ``MACHINE_CODE = True`` whose kernels' machine code an earlier process
    kept gets that code instead, loaded without numba
    (:func:`~pyasp_games.engines.machine_code.load`); compiled by numba, its code is kept
    for the next process (:func:`~pyasp_games.engines.machine_code.save`).
    The kernels compile on their first call with each argument type, or load from
    numba's cache. numba raises ``RuntimeError`` at decoration when no cache folder
    can be written: the kernel is then compiled in memory only.
    """
    if module in _COMPILED:
        return
    from pyasp_games.engines import machine_code  # (a search done interpreted never needs it)

    namespace = sys.modules[module]
    names = _names(module)
    kept = machine_code.enabled(namespace)
    if kept:  # the kernels' machine code, kept by an earlier process: no numba at all
        with uncapped("loading the compiled kernels"):
            if machine_code.load(namespace, names):
                _COMPILED.add(module)
                _MACHINE_CODE.add(module)
                return
    # numba loads scipy's OpenBLAS when scipy is installed, whose start-up retries a
    # failed allocation forever, and LLVM aborts the process when an allocation fails:
    # loading and compiling are the tool's cost, the search runs under the cap again
    # (the context managers: see UNUSED_BY_KERNELS and _light_loads)
    with uncapped("loading the compiled kernels"), _refused(UNUSED_BY_KERNELS), _light_loads():
        import numba

        _MACHINE_CODE.discard(module)
        for name in names:
            function = getattr(namespace, name)
            try:
                compiled = numba.njit(cache=True)(function)
                _keyed_by_sources(compiled)
            except RuntimeError:  # "cannot cache function ...: no locator available"
                compiled = numba.njit(function)
            _plain_calls(compiled)
            setattr(namespace, name, compiled)
        _COMPILED.add(module)
        warm_up = getattr(namespace, "warm_up", None)
        if warm_up is not None:
            warm_up()
        if kept:  # for the next process (each kernel called once: its types are known)
            machine_code.save(namespace, names)


def _keyed_by_sources(dispatcher: Any) -> None:
    """Key numba's cache of ``dispatcher`` by everything its machine code is made of
    (:func:`code_digest`), not only by its own module's file: numba compiles a kernel's
    callees and the constants it reads into its machine code, but keys the cached code
    by the kernel's own bytecode and the stamp of its own file, so a change in another
    module (a shared kernel's body, an imported constant) was not seen until the
    kernel's file changed. The digest joins that stamp: another digest, and the cached
    entries of the kernel are stale (numba compiles it again and writes them anew). A
    numba without these internals keeps its own key."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    stamp = getattr(cache_file, "_source_stamp", None)
    if stamp is None:  # pragma: no cover - another numba, or no cache
        return
    cache_file._source_stamp = (stamp, code_digest(dispatcher))


def code_digest(function: Callable[..., Any]) -> str:
    """A digest of what numba compiles into ``function``'s machine code: its bytecode and,
    followed from kernel to kernel, that of every function of its package it calls
    (directly or as ``module.name``), and the value of every other global it reads (a
    constant, which numba compiles in as a value; an object by its type). Other packages
    (numpy's, numba's) are keyed by their versions elsewhere.

    >>> code_digest(bit_index) == code_digest(bit_index), code_digest(bit_index) == code_digest(bit_count)
    (True, False)
    """
    start = _function(function)
    if start is None:
        raise TypeError(f"not a kernel: {function!r}")
    top = start.__module__.partition(".")[0]
    hasher = hashlib.sha256()
    seen: set[FunctionType] = set()
    stack = [start]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        hasher.update(f"{current.__module__}.{current.__qualname__}\0".encode())
        _hash_code(hasher, current.__code__)
        hasher.update(_value_text(current.__defaults__).encode())
        names = sorted(_global_names(current.__code__))
        for name in names:
            value = current.__globals__.get(name, _ABSENT)
            if isinstance(value, ModuleType):  # `module.helper`: both names are read
                if value.__name__.partition(".")[0] == top:
                    stack.extend(f for n in names if (f := _ours(getattr(value, n, None), top)) is not None)
                    hasher.update(f"{name}.{value.__name__}\0".encode())
                continue
            callee = _ours(value, top)
            if callee is not None:
                stack.append(callee)
            elif _function(value) is None:  # (another package's function: its version)
                hasher.update(f"{name}={_value_text(value)}\0".encode())
    return hasher.hexdigest()[:20]


#: A global name that a function's module does not bind (an attribute's name).
_ABSENT = object()


def _hash_code(hasher: Any, code: CodeType) -> None:
    """Feed ``hasher`` what ``code`` computes (not where its lines are)."""
    hasher.update(code.co_code)
    hasher.update(repr(code.co_names).encode())
    for const in code.co_consts:
        if isinstance(const, CodeType):
            _hash_code(hasher, const)
        else:
            hasher.update(_value_text(const).encode())


def _value_text(value: Any) -> str:
    """``value`` as text that is the same in every process: a number, text or a tuple of
    them as written, an array by its contents, anything else by its type."""
    if value is None or isinstance(value, bool | int | float | complex | str | bytes):
        return repr(value)
    if isinstance(value, tuple | frozenset):
        return f"({','.join(_value_text(v) for v in value)})"
    tobytes = getattr(value, "tobytes", None)
    if callable(tobytes) and hasattr(value, "dtype"):  # a numpy array: numba freezes it in
        return f"{value.dtype}{value.shape}:{hashlib.sha256(tobytes()).hexdigest()}"
    kind = type(value)
    return f"<{kind.__module__}.{kind.__qualname__}>"


def _global_names(code: CodeType) -> set[str]:
    """The names ``code`` and the code nested in it read (globals and attributes)."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names |= _global_names(const)
    return names


def _function(value: Any) -> FunctionType | None:
    """The Python function of ``value`` (a function, or a compiled kernel's source: kept
    machine code loaded over numba's dispatcher has that as its source), else ``None``."""
    for _ in range(3):
        value = getattr(value, "py_func", value)
    return value if isinstance(value, FunctionType) else None


def _ours(value: Any, top: str) -> FunctionType | None:
    """The Python function of ``value`` when it is one of the package ``top``'s, else ``None``."""
    function = _function(value)
    if function is None or function.__module__.partition(".")[0] != top:
        return None
    return function


def _plain_calls(dispatcher: Any) -> None:
    """Make a kernel called by another kernel compile for its arguments' plain types.

    numba types a constant argument of a call inside compiled code as a literal
    (``Literal[int](0)``) and compiles the callee once more for each such pattern of
    constants: Hex's chain options six times, the puzzle's dual lookup with its ``first``
    fixed. The callee's machine code does the same with the constant passed as a value,
    so such a call now takes the callee's plain signature (``int64``), compiled once; a
    callee that can only be typed with the literal (none here today) still gets it. A
    numba without this method keeps its own way."""
    original = getattr(dispatcher, "get_call_template", None)
    if original is None:  # pragma: no cover - another numba
        return
    try:
        from numba.core.errors import TypingError
        from numba.core.types import unliteral
    except ImportError:  # pragma: no cover - another numba
        return

    def get_call_template(args: Any, kws: Any) -> Any:
        plain_args = tuple(unliteral(a) for a in args)
        plain_kws = {k: unliteral(v) for k, v in kws.items()}
        if plain_args == tuple(args) and plain_kws == kws:
            return original(args, kws)
        try:
            return original(plain_args, plain_kws)
        except TypingError:
            return original(args, kws)

    dispatcher.get_call_template = get_call_template


@contextmanager
def _refused(names: tuple[str, ...]) -> Iterator[None]:
    """Make ``import NAME`` raise ``ImportError`` for each of ``names`` not yet imported
    (a ``None`` in ``sys.modules``, Python's own way), for the duration."""
    refused = [name for name in names if name not in sys.modules]
    for name in refused:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        for name in refused:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]


@contextmanager
def _light_loads() -> Iterator[None]:
    """While the kernels load: a kernel's machine code is loaded from numba's cache
    with only numba's runtime set up, not after the refresh of its whole target context
    that numba's cache does first (importing and installing every registry of numba's
    compiler, 0.13 s of CPU, which a compilation needs and loading compiled code does
    not). A load that fails so is done again numba's way; a kernel compiled (no cache
    yet) refreshes the context itself; a numba without these internals loads its own way."""
    try:
        from numba.core.caching import Cache
        from numba.core.runtime import rtsys
    except ImportError:  # pragma: no cover - another numba
        yield
        return
    original = Cache.__dict__.get("load_overload")
    if original is None or not hasattr(Cache, "_load_overload"):  # pragma: no cover
        yield
        return

    def load_overload(cache: Any, sig: Any, target_context: Any) -> Any:
        try:
            rtsys.initialize(target_context)  # what the loaded code calls: the runtime
            loaded = cache._load_overload(sig, target_context)
        except Exception:  # numba's way: the whole context first
            return original(cache, sig, target_context)
        return loaded if loaded is not None else original(cache, sig, target_context)

    Cache.load_overload = load_overload
    try:
        yield
    finally:
        Cache.load_overload = original


def run_sliced(
    step: Callable[[int], bool],
    deadline: Deadline | None,
    module: str | None = None,
    first: int = 1 << 8,
    stats: Callable[[], dict[str, Any]] | None = None,
    expected: float | None = None,
) -> None:
    """Call ``step(budget)`` until it returns true (done), checking ``deadline`` between calls.

    ``step`` calls kernels of ``module``: while that module is not compiled, the
    slices run interpreted for at most :data:`INTERPRETED_SECONDS` of CPU in all, then
    :func:`compile_kernels` compiles it and the search goes on from where it
    stopped; with ``expected`` (an estimate of the steps the whole search takes), as
    soon as the interpreted slices so far, at their speed, say that the rest would
    take longer than that; after :data:`KEPT_SECONDS` when the module's machine code is
    kept from an earlier process. ``budget`` (steps of the kernel: nodes, states) starts at
    ``first`` and is doubled while a slice takes less than :data:`SLICE_SECONDS`,
    halved while it takes more than twice that. Raises :class:`LimitReached` with
    ``stats()`` once the deadline has passed.
    """
    budget = first
    interpreted = 0.0
    stepped = 0
    kept: bool | None = None  # whether the module's machine code is kept (asked once)
    while True:
        started, cpu = time.perf_counter(), time.process_time()
        if step(budget):
            return
        took = time.perf_counter() - started
        if deadline is not None and deadline.expired():
            raise LimitReached(stats() if stats is not None else {})
        if module is not None and not is_compiled(module):
            interpreted += time.process_time() - cpu
            stepped += budget
            if kept is None and interpreted >= KEPT_SECONDS:
                kept = _kept(module)
            if interpreted >= INTERPRETED_SECONDS or kept or _outgrows(expected, stepped, interpreted):
                compile_kernels(module)
                budget = first
                continue
        if took < SLICE_SECONDS and budget < MAX_BUDGET:
            budget *= 2
        elif took > 2 * SLICE_SECONDS and budget > 1:
            budget //= 2


def _kept(module: str) -> bool:
    """Whether the machine code of ``module``'s kernels is kept, to load without numba."""
    from pyasp_games.engines import machine_code

    namespace = sys.modules[module]
    return machine_code.enabled(namespace) and machine_code.kept(namespace, _names(module))


def _outgrows(expected: float | None, stepped: int, interpreted: float) -> bool:
    """Whether a search of about ``expected`` steps, of which ``stepped`` took
    ``interpreted`` CPU seconds, would run interpreted past :data:`INTERPRETED_SECONDS`."""
    if expected is None or interpreted <= 0:
        return False
    return interpreted + (expected - stepped) * interpreted / stepped > INTERPRETED_SECONDS
