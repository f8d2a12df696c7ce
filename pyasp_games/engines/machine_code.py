"""The kernels' machine code, kept once numba has compiled it and loaded without numba.

numba costs every process that runs a compiled kernel about 0.3 s of CPU before the
first kernel runs (importing numba and numpy; loading its cache is cheap), which is
what kept the whole ``cover solve -b dlx`` command at 2x the ``xcover`` package's
search on a 5-regular X3C of q = 50 (``benchmarks/RESULTS.md``, issues 32 and 46). A
kernel module that opts in (``MACHINE_CODE = True`` at its top) has its kernels'
machine code written, the first time numba compiles them, as object code of C-callable
wrappers (``numba.cfunc`` around each kernel: an array travels as a pointer and a
length); a later process loads that object code with LLVM's loader from ``llvmlite``
(0.04 s to import, milliseconds to load) and calls it through ``ctypes``, on
``array.array`` arrays: neither numba nor numpy is imported. The code run is the same:
the kernels compiled by numba from their Python source, as before.

>>> from array import array
>>> accepts(array("q", [1, 2]), "int64"), accepts([1, 2], "int64")
(True, False)

Notes
-----
What makes this safe to load without numba:

- **The code is the kernels', compiled for this machine and these versions.** The
  file's name carries a digest of the kernel modules' sources, of what the kernels
  call and read in other modules (:func:`~.compiled.code_digest`), the kernels' names, the
  Python, numba and llvmlite versions and the host CPU (its name and features): any
  change, and the file is not found; the kernels are compiled by numba again (and the
  file written anew).
- **The kernels called from Python are wrapped**, each with the one signature it was
  called with (in the module's ``warm_up``); a kernel called only by other kernels
  is compiled into their code and keeps its Python source as its name's value.
- **Only what the kernels call is resolved, and nothing is guessed.** The object
  code's undefined symbols are written beside it: Python's C API (found in the
  process) and a few helpers of numba's runtime that the wrappers call only to report
  an exception (``numba_gil_ensure``, ``numba_do_raise``, ...: none of the opted-in
  kernels raises, nor allocates: their arrays are allocated in Python). Those helpers
  are bound to a stub that records the call, and a kernel that reaches one fails with
  ``RuntimeError`` after its call; any other missing symbol, a signature that is not
  arrays of numbers and plain numbers, or a kernel with more than one signature, and
  the module keeps numba's way.
- **An array is checked before its address is passed**: its type must be the
  kernel's (``array('q')`` for ``int64``, ...), else ``TypeError``.
- Where nothing can be written (a read-only install and no cache folder), or with
  ``PYASP_GAMES_MACHINE_CODE=0`` or ``NUMBA_DISABLE_JIT=1`` in the environment, numba
  compiles the kernels as before.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Bumped when the file's layout changes (old files are then not found).
FORMAT = 1

#: numba's runtime helpers that the C wrappers reference only on the path that reports
#: an exception (or frees an array the kernels never own): bound to a stub.
ERROR_PATH_HELPERS = frozenset({
    "numba_gil_ensure", "numba_gil_release", "numba_unpickle", "numba_do_raise",
    "numba_runtime_build_excinfo_struct", "NRT_Free", "NRT_MemInfo_call_dtor",
})  # fmt: skip

#: ``array.array`` type codes and numpy dtype strings of the array types a wrapper takes.
ARRAY_TYPES = {
    "int64": ("q", "<i8"),
    "int32": ("i", "<i4"),
    "uint64": ("Q", "<u8"),
    "uint32": ("I", "<u4"),
    "uint8": ("B", "|u1"),
    "int8": ("b", "|i1"),
    "float64": ("d", "<f8"),
}

#: The engines, stubs and entry points loaded in this process (kept alive with it).
_KEPT: list[Any] = []
#: The stub calls seen since the last check (a kernel reached its error path).
_STUB_CALLS: list[str] = []


def accepts(values: Any, dtype: str) -> bool:
    """Whether ``values`` is an array a wrapper of element type ``dtype`` takes: an
    ``array.array`` of its type code, or a 1-D C-contiguous numpy array of its dtype.

    >>> from array import array
    >>> accepts(array("q", [1]), "int64"), accepts(array("i", [1]), "int64")
    (True, False)
    """
    codes = ARRAY_TYPES[dtype]
    code = getattr(values, "typecode", None)
    if code is not None:
        return code == codes[0]
    kind = getattr(values, "dtype", None)
    return kind is not None and kind.str == codes[1] and values.flags.c_contiguous and values.ndim == 1


def enabled(namespace: Any) -> bool:
    """Whether the kernels of ``namespace`` (a module) are kept as machine code: the
    module says ``MACHINE_CODE = True`` and the environment does not turn it off.

    >>> from types import SimpleNamespace
    >>> enabled(SimpleNamespace(MACHINE_CODE=True)) == (os.environ.get("PYASP_GAMES_MACHINE_CODE") != "0")
    True
    >>> enabled(SimpleNamespace())
    False
    """
    if not getattr(namespace, "MACHINE_CODE", False):
        return False
    if os.environ.get("PYASP_GAMES_MACHINE_CODE", "1") == "0":
        return False
    return os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0")


def load(namespace: Any, names: list[str]) -> bool:
    """Bind the kernels ``names`` of ``namespace`` to their kept machine code, when a
    file for this very code exists; whether it did (else nothing changed).

    >>> import types
    >>> plain = types.ModuleType("plain")  # no source file: nothing can be kept for it
    >>> load(plain, ["step"]), kept(plain, ["step"]), save(plain, ["step"])
    (False, False, None)
    """
    path = _file(namespace, names, create=False)
    if path is None or not path.is_file():
        return False
    try:
        kept = json.loads(path.read_text())
        entries = _link(kept)
    except (OSError, ValueError, KeyError, TypeError, RuntimeError):
        return False  # a damaged or foreign file: numba compiles, and writes it again
    if not entries or not set(entries) <= set(names):
        return False
    for name, entry in entries.items():
        entry.py_func = getattr(namespace, name)  # type: ignore[attr-defined] - its source, as numba's
        setattr(namespace, name, entry)
    return True


def kept(namespace: Any, names: list[str]) -> bool:
    """Whether the machine code of the kernels ``names`` of ``namespace`` is kept (see
    :func:`load` for an example)."""
    path = _file(namespace, names, create=False)
    return path is not None and path.is_file()


def save(namespace: Any, names: list[str]) -> Path | None:
    """Write the machine code of the kernels ``names`` of ``namespace``, compiled by numba
    and called once each (their signatures known), as C-callable wrappers; the file, or
    ``None`` when a kernel's signature has no wrapper here or nothing can be written
    (see :func:`load` for an example)."""
    path = _file(namespace, names, create=True)
    if path is None:
        return None
    kernels = []
    for name in names:
        if not getattr(getattr(namespace, name), "signatures", None):
            continue  # called only by other kernels: its code is in theirs
        try:
            described = _wrap(namespace, name)
        except Exception:  # numba refused a wrapper: the kernels run as ever
            return None
        if described is None:
            return None
        kernels.append(described)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps({"format": FORMAT, "kernels": kernels}))
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        return None
    return path


def _wrap(namespace: Any, name: str) -> dict[str, Any] | None:
    """The C wrapper of one compiled kernel: its symbol, argument kinds and object code."""
    from numba import carray, cfunc, types

    dispatcher = getattr(namespace, name)
    signatures = getattr(dispatcher, "signatures", [])
    if len(signatures) != 1:
        return None
    args, c_args, params, passed = [], [], [], []
    for i, arg in enumerate(signatures[0]):
        if isinstance(arg, types.Array) and arg.ndim == 1 and arg.layout == "C" and str(arg.dtype) in ARRAY_TYPES:
            args.append(["array", str(arg.dtype)])
            c_args += [types.CPointer(arg.dtype), types.int64]
            params += [f"a{i}", f"n{i}"]
            passed.append(f"carray(a{i}, n{i})")
        elif isinstance(arg, types.Boolean):
            args.append(["bool", "int64"])
            c_args.append(types.int64)
            params.append(f"a{i}")
            passed.append(f"a{i} != 0")
        elif isinstance(arg, types.Integer | types.Float) and str(arg) in ("int64", "float64"):
            args.append(["scalar", str(arg)])
            c_args.append(arg)
            params.append(f"a{i}")
            passed.append(f"a{i}")
        else:
            return None
    result = dispatcher.overloads[signatures[0]].signature.return_type
    if isinstance(result, types.NoneType):
        restype, returns = types.void, "none"
    elif isinstance(result, types.Boolean):
        restype, returns = types.int64, "bool"
    elif str(result) in ("int64", "float64"):
        restype, returns = result, str(result)
    else:
        return None
    source = f"def wrapper({', '.join(params)}):\n    return kernel({', '.join(passed)})\n"
    scope: dict[str, Any] = {"kernel": dispatcher, "carray": carray}
    exec(source, scope)  # our own text: the kernel's call with its arrays
    wrapped = cfunc(restype(*c_args))(scope["wrapper"])
    library = wrapped._library
    module = library._final_module
    undefined = sorted(
        {f.name for f in module.functions if f.is_declaration and not f.name.startswith("llvm.")}
        | {g.name for g in module.global_variables if g.is_declaration}
    )
    code = library._codegen._tm.emit_object(module)
    return {
        "name": name,
        "symbol": wrapped.native_name,
        "args": args,
        "returns": returns,
        "undefined": undefined,
        "object": base64.b64encode(code).decode("ascii"),
    }


def _link(kept: dict[str, Any]) -> dict[str, Callable[..., Any]]:
    """Load the object code of a kept file; each kernel's Python entry point."""
    import ctypes

    import llvmlite.binding as llvm

    if kept.get("format") != FORMAT:
        raise ValueError("another format")
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_default_triple().create_target_machine(jit=True)
    entries = {}
    for described in kept["kernels"]:
        # (an engine makes the process's own symbols, Python's C API, visible to LLVM)
        engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), machine)
        for symbol in described["undefined"]:
            if llvm.address_of_symbol(symbol) is not None:
                continue  # Python's C API in this process, or numba's own once loaded
            if symbol not in ERROR_PATH_HELPERS:
                raise RuntimeError(f"the kernel needs {symbol}, which is not loaded")
            stub = ctypes.CFUNCTYPE(ctypes.c_void_p)(lambda symbol=symbol: _STUB_CALLS.append(symbol))
            _KEPT.append(stub)
            llvm.add_symbol(symbol, ctypes.cast(stub, ctypes.c_void_p).value)
        engine.add_object_file(llvm.ObjectFileRef.from_data(base64.b64decode(described["object"])))
        engine.finalize_object()
        address = engine.get_function_address(described["symbol"])
        if not address:
            raise RuntimeError(f"no {described['symbol']} in the kept code")
        _KEPT.append(engine)
        entries[described["name"]] = _entry(address, described)
    return entries


def _c_type(kind: str) -> Any:
    import ctypes

    return {"int64": ctypes.c_int64, "float64": ctypes.c_double}[kind]


def _entry(address: int, described: dict[str, Any]) -> Callable[..., Any]:
    """A Python callable for the wrapper at ``address``: arrays checked and passed as their
    address and length. It holds the GIL while the kernel runs, as numba's kernels do."""
    import ctypes

    c_args: list[Any] = []
    for kind, of in described["args"]:
        c_args += [ctypes.c_void_p, ctypes.c_int64] if kind == "array" else [_c_type(of)]
    returns = described["returns"]
    restype = None if returns == "none" else _c_type("int64" if returns == "bool" else returns)
    function = ctypes.PYFUNCTYPE(restype, *c_args)(address)
    kinds = described["args"]
    name = described["name"]

    def call(*values: Any) -> Any:
        if len(values) != len(kinds):
            raise TypeError(f"{name}() takes {len(kinds)} arguments ({len(values)} given)")
        passed: list[Any] = []
        for value, (kind, of) in zip(values, kinds, strict=True):
            if kind == "array":
                if not accepts(value, of):
                    raise TypeError(f"{name}(): an array of {of} expected, not {type(value).__name__}")
                info = getattr(value, "buffer_info", None)
                passed += [info()[0] if info is not None else value.ctypes.data, len(value)]
            else:
                passed.append(int(bool(value)) if kind == "bool" else value)
        result = function(*passed)
        if _STUB_CALLS:
            reached = sorted(set(_STUB_CALLS))
            _STUB_CALLS.clear()
            raise RuntimeError(f"the compiled kernel {name} failed (it reached {', '.join(reached)})")
        return bool(result) if returns == "bool" else result

    call.__name__ = name
    call.machine_code = True  # type: ignore[attr-defined]
    return call


def _file(namespace: Any, names: list[str], create: bool) -> Path | None:
    """Where the machine code of these kernels of ``namespace`` is kept (``None``: nowhere
    writable, when ``create``): ``__pycache__`` beside the module when it can be written,
    else the user's cache folder. The name carries the digest of what the code depends on."""
    source = getattr(namespace, "__file__", None)
    if source is None:
        return None
    digest = _digest(namespace, names)
    if digest is None:
        return None
    stem = namespace.__name__.rsplit(".", 1)[-1]
    filename = f"{stem}.{digest}.kernels"
    beside = Path(source).parent / "__pycache__"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    user = Path(base) / "pyasp-games" / "machine-code"
    for folder in (beside, user):
        if (folder / filename).is_file():
            return folder / filename
    if not create:
        return None
    for folder in (beside, user):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(folder, os.W_OK):
            return folder / filename
    return None


def _digest(namespace: Any, names: list[str]) -> str | None:
    """A digest of everything the kernels' machine code depends on (see the module doc)."""
    from importlib.util import find_spec

    import llvmlite

    from pyasp_games.engines.compiled import code_digest

    hasher = hashlib.sha256(f"{FORMAT} {sys.version} {llvmlite.__version__} {names}".encode())
    # the modules the kernels' source is in (a shared kernel's is another's)
    kernels = [getattr(namespace, name) for name in names]
    modules = {namespace.__name__} | {getattr(k, "py_func", k).__module__ for k in kernels}
    try:
        for module in sorted(modules):
            hasher.update(Path(sys.modules[module].__file__).read_bytes())
        for function in kernels:  # what they call and read in other modules, compiled in
            hasher.update(code_digest(function).encode())
        spec = find_spec("numba")
        if spec is None or spec.origin is None:
            return None
        hasher.update(Path(spec.origin).with_name("_version.py").read_bytes())
    except (OSError, KeyError, TypeError):
        return None
    hasher.update(_host().encode())
    return hasher.hexdigest()[:20]


def _host() -> str:
    """The host CPU's name and features, as LLVM (and so numba) compiles for them."""
    import llvmlite.binding as llvm

    return f"{llvm.get_process_triple()} {llvm.get_host_cpu_name()} {llvm.get_host_cpu_features().flatten()}"
