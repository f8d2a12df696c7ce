"""The processes a command starts, and how they all stop when the command is stopped.

A command may run work in other processes: a backend in a forked child (to hold its time
limit, :mod:`pyasp_games.engines.runner`), a pool of workers (``--workers N``), a bench
run in a subprocess. Whatever stops the command -- Ctrl-C (SIGINT), ``kill`` or a
scheduler (SIGTERM), a closed terminal (SIGHUP) -- must stop all of them with it, and the
command must end with ``128 + signal`` (130, 143, 129). Three pieces do that:

- :func:`stop_signals` (the command line holds it around every command): the first stop
  signal raises :class:`KeyboardInterrupt` in the main thread, so every ``finally`` and
  ``with`` on the way out stops what it started (a backend's child is killed, a pool is
  stopped by :func:`process_pool`); later signals are ignored so the stopping is not cut
  short. A main thread that cannot run Python for a while (a long call into a C library
  holding it) would never see the interrupt: a watcher thread then stops every child and
  ends the process :data:`WATCH_GRACE` seconds after the signal.
- :func:`process_pool`: a process pool that, left by an exception (the interrupt, a
  time limit), stops its workers at once instead of waiting for the runs they hold
  (:func:`stop_pool`); its workers (:func:`worker_init`) kill their own children and exit
  when stopped.
- :func:`die_with_parent`: on Linux, a child asks to be killed when its parent dies,
  so even a parent killed outright (SIGKILL) leaves no solver running.

>>> with process_pool(2) as pool:
...     list(pool.map(abs, [-1, -2, 3]))
[1, 2, 3]
>>> stopped_by() is None
True
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from concurrent.futures import Executor, ProcessPoolExecutor

#: Signals that stop a command: Ctrl-C, a scheduler's or ``kill``'s SIGTERM, and SIGHUP
#: (the terminal closed).
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

#: Seconds the main thread has, after a stop signal, to stop by itself before the
#: watcher stops every child and ends the process.
WATCH_GRACE = 0.5

#: Seconds a stopped worker has to end before it is killed.
STOP_WAIT = 0.4

#: The stop signals received by this process, in order (the first one is what stopped it).
_received: list[int] = []


def process_started() -> float:
    """When this process started, on :func:`time.perf_counter`'s clock (Linux:
    ``/proc/self/stat``'s start time against ``/proc/uptime``, to the kernel's tick; where
    that cannot be read, now): a limit on a whole command counts the interpreter's
    start-up and imports too, as the user's clock does.

    >>> 0 <= time.perf_counter() - process_started() < 3600
    True
    """
    now = time.perf_counter()
    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
        with open("/proc/uptime", "rb") as uptime:
            up = float(uptime.read().split()[0])
        # after the command name: the start time (ticks since boot) is field 22
        age = up - int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):  # not Linux
        return now
    return now - max(0.0, age)


def stopped_by() -> int | None:
    """The signal that stopped this command, or ``None``."""
    return _received[0] if _received else None


def _interrupt(signum: int, frame: Any) -> None:
    for sig in STOP_SIGNALS:  # the stopping must not be cut short by a second Ctrl-C
        signal.signal(sig, signal.SIG_IGN)
    _received.append(signum)
    raise KeyboardInterrupt


@contextmanager
def stop_signals() -> Iterator[None]:
    """While inside: a stop signal interrupts the main thread (once), and a watcher ends
    the process with ``128 + signal`` if it has not ended :data:`WATCH_GRACE` seconds
    later; see the module docstring. Outside the main thread this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    read, write = os.pipe()
    os.set_blocking(write, False)
    done = threading.Event()
    previous_fd = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    previous = {sig: signal.signal(sig, _interrupt) for sig in STOP_SIGNALS}
    previous_hook = sys.unraisablehook
    sys.unraisablehook = quiet_stop(previous_hook)
    watcher = threading.Thread(target=_watch, args=(read, done), daemon=True, name="stop-watcher")
    watcher.start()
    try:
        yield
    finally:
        done.set()
        sys.unraisablehook = previous_hook
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        signal.set_wakeup_fd(previous_fd)
        os.write(write, b"\0")  # wakes the watcher, which ends
        watcher.join(1)
        os.close(write)
        if not watcher.is_alive():
            os.close(read)


def quiet_stop(hook: Callable[[Any], None]) -> Callable[[Any], None]:
    """``sys.unraisablehook`` that drops the interrupt of a stop signal raised inside a
    finalizer (a multiprocessing ``Finalize`` closing a pipe): Python would print it as
    "Exception ignored in ... Traceback", though the stop is under way (the watcher ends
    the process if the interrupt is lost so); and a ``MemoryError`` raised inside a
    finalizer (a search's generator closed while its data is still held, after a memory
    stop): the command reports the memory limit itself, in its one line, and printing
    the traceback would fail for want of memory too. Anything else goes to ``hook``."""

    def quiet(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, MemoryError):  # no allocation before this test
            return
        if isinstance(unraisable.exc_value, KeyboardInterrupt) and stopped_by() is not None:
            return
        hook(unraisable)

    return quiet


def _watch(read: int, done: threading.Event) -> None:
    """The watcher thread: the wake-up pipe receives the number of every signal caught
    (at C level, whether or not the main thread runs Python); on a stop signal, give the
    main thread :data:`WATCH_GRACE` seconds, then stop every child and end."""
    while True:
        try:
            data = os.read(read, 64)
        except OSError:
            return
        if done.is_set() or not data:
            return
        stop = next((s for s in data if s in STOP_SIGNALS), None)
        if stop is None:
            continue
        if done.wait(WATCH_GRACE):
            return
        stop_children()
        name = signal.Signals(stop).name
        try:
            sys.stdout.flush()
            print(f"pyasp-games: stopped by {name}", file=sys.stderr, flush=True)
        except Exception:  # a closed stream must not keep the process alive
            pass
        os._exit(128 + stop)


def stop_children(wait: float = STOP_WAIT) -> None:
    """Stop every child process this process started with :mod:`multiprocessing` (a
    backend's forked child, pool workers): SIGTERM (a worker then stops its own
    children, :func:`worker_init`), then SIGKILL for any still running after ``wait``."""
    children = _children()
    for child in children:
        child.terminate()
    _reap(children, wait)


def _children() -> list[Any]:
    """The live children this process started with :mod:`multiprocessing`; none when it
    was never imported (a command that starts no child does not pay its import, 7 ms)."""
    started = sys.modules.get("multiprocessing")
    return [] if started is None else started.active_children()


def _reap(children: list[Any], wait: float) -> None:
    deadline = time.monotonic() + wait
    for child in children:
        child.join(max(0.0, deadline - time.monotonic()))
    for child in children:
        if child.is_alive():
            child.kill()
            child.join(1)


def child_started() -> None:
    """What a child process calls first (a forked backend, a pool worker): it does not
    report to its parent's watcher (:func:`stop_signals`), and it dies with its parent."""
    with suppress(ValueError):  # only the main thread may (a forked child's only thread is)
        signal.set_wakeup_fd(-1)
    die_with_parent()


def worker_init(on_stop: Callable[[], None] | None = None) -> None:
    """Initializer of a pool's workers: a stop signal (the pool stopped by
    :func:`stop_pool`, or Ctrl-C reaching the whole process group) runs ``on_stop``
    (e.g. kills a run's process group), kills the worker's own children and ends the
    worker at once and quietly, instead of going on with the next run."""
    child_started()

    def stop(signum: int, frame: Any) -> None:
        if on_stop is not None:
            on_stop()
        children = _children()
        for child in children:
            child.kill()
        for child in children:  # reaped: no zombie outlives the worker
            child.join(1)
        os._exit(128 + signum)

    for sig in STOP_SIGNALS:
        signal.signal(sig, stop)


def die_with_parent() -> None:
    """Linux: be killed when the parent that started this process dies (no orphaned
    solver, even when the parent was killed outright)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        parent = os.getppid()
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent died before the request took hold
            os._exit(128 + signal.SIGKILL)
    except (OSError, AttributeError):  # pragma: no cover - best effort
        pass


@contextmanager
def process_pool(workers: int, **options: Any) -> Iterator[ProcessPoolExecutor]:
    """A ``ProcessPoolExecutor`` of ``workers`` whose workers run :func:`worker_init`.

    Left normally, it waits for its runs; left by an exception (an interrupt, a time
    limit, the consumer of its results gone) it stops them now (:func:`stop_pool`).
    """
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=workers, initializer=worker_init, **options)
    try:
        yield pool
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)


#: The manager threads of pools stopped on purpose (:func:`stop_pool`).
_STOPPED_MANAGERS: weakref.WeakSet[threading.Thread] = weakref.WeakSet()


def _quiet_after_stop(manager: threading.Thread) -> None:
    """Say nothing of an exception that ends ``manager``, the manager thread of a pool
    stopped on purpose: it reads results from workers that were killed and puts runs into
    queues being closed (CPython 3.11 prints "Exception in thread Thread-2: Traceback" for
    what is only the stop it was not told of). Any other thread's exception is printed as
    before."""
    _STOPPED_MANAGERS.add(manager)
    if getattr(threading.excepthook, "_quiet_after_stop", False):
        return
    previous = threading.excepthook

    def hook(args: Any) -> None:
        if args.thread is not None and args.thread in _STOPPED_MANAGERS:
            return
        previous(args)

    hook._quiet_after_stop = True  # type: ignore[attr-defined]
    threading.excepthook = hook


def stop_pool(pool: Executor, wait: float = STOP_WAIT) -> None:
    """Stop a process pool now: queued runs cancelled, running ones stopped.

    The executor API can only cancel runs that have not started; each worker is sent
    SIGTERM, on which it stops its children and exits (:func:`worker_init`), and is
    waited for (killed if it has not ended within ``wait`` seconds).
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None:  # before its workers go: what it meets then is no error
        _quiet_after_stop(manager)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    # wait for them: a worker left behind would keep the command's output pipes and
    # multiprocessing's resource tracker alive after the command has ended
    _reap(processes, wait)
    # concurrent.futures' exit hook wakes every executor's manager thread through a pipe;
    # after the workers were killed that pipe can already be gone (CPython 3.11: a
    # "Bad file descriptor" traceback at exit), so once the manager thread has ended,
    # nothing is left for the hook to wake
    if manager is not None:
        manager.join(5)
        if not manager.is_alive():
            from concurrent.futures import process as futures_process

            getattr(futures_process, "_threads_wakeups", {}).pop(manager, None)
