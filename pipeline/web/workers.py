"""The worker processes that read photos for the server, and the bounded queue before them.

The heavy work runs in the batch runner's own worker processes (`pipeline.batch`), never on
the event loop. A request first takes a place (`admit`): at most `jobs` run and `queue`
wait, and beyond that the server answers 503 at once with a Retry-After estimated from
recent work, so memory stays bounded whatever the load. A task is handed to the pool only
when a worker is free, so the time limit counts the work, not the wait. A worker that
crashes, or outlives the per-photo limit (its own alarm failed, e.g. stuck in native
code), is replaced with the whole pool. The other tasks it took down with it are tried
once more, one at a time in a pool of their own (as the batch runner does), so the task
that crashes a worker cannot take down the others a second time.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

TIME_AVERAGING = 0.2  # weight of the newest task in the running mean of task times
FIRST_GUESS = 1.0  # s per task before any has been timed (a 12 MP photo takes ~0.3 s)
RETRY_AFTER_MAX = 120  # s: never ask a client to wait longer than this
STOP_WAIT = 5.0  # s to wait for a terminated worker to exit


class Busy(Exception):
    """Every worker and every place in the queue is taken."""

    def __init__(self, retry_after: int):
        super().__init__(f"the server is busy; try again in {retry_after} s")
        self.retry_after = retry_after


class WorkerLost(Exception):
    """The worker running a task crashed or hung, and was replaced."""


class Workers:
    """A pool of worker processes behind a bounded queue, for use on one event loop."""

    def __init__(self, make_pool: Callable[[int], Executor], jobs: int, queue: int,
                 hard_limit: float | None):
        """`make_pool(n)` makes a pool of n worker processes; `hard_limit` is the time in s
        after which a task's worker is deemed hung (None: never)."""
        self.jobs, self.queue, self.hard_limit = jobs, queue, hard_limit
        self._make_pool = make_pool
        self._pool: Executor | None = None
        self._running: asyncio.Semaphore | None = None
        self._alone: asyncio.Lock | None = None
        self._admitted = 0
        self._mean = FIRST_GUESS

    @property
    def capacity(self) -> int:
        """Requests served at once: running plus waiting."""
        return self.jobs + self.queue

    @property
    def admitted(self) -> int:
        return self._admitted

    async def start(self) -> None:
        """Start the worker processes and wait until each has loaded the recognizer, so the
        first photo is as quick as the others and a broken set-up shows at once."""
        self._running = asyncio.Semaphore(self.jobs)
        self._alone = asyncio.Lock()
        self._pool = self._make_pool(self.jobs)
        loop = asyncio.get_running_loop()
        warm = [loop.run_in_executor(self._pool, time.sleep, 0.05) for _ in range(self.jobs)]
        await asyncio.gather(*warm)

    async def close(self) -> None:
        """Stop the worker processes (tasks still queued are cancelled)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(_stop, pool)

    @contextmanager
    def admit(self) -> Iterator[None]:
        """A place for one request, held while it is served (raises Busy when none is left)."""
        if self._admitted >= self.capacity:
            raise Busy(self.retry_after())
        self._admitted += 1
        try:
            yield
        finally:
            self._admitted -= 1

    def retry_after(self) -> int:
        """Seconds until a place is likely free: the queue's work shared among the workers."""
        waiting = max(1, self._admitted - self.jobs + 1)
        return min(RETRY_AFTER_MAX, max(1, math.ceil(waiting * self._mean / self.jobs)))

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker process, once one is free (raises WorkerLost)."""
        assert self._running is not None and self._alone is not None, "start() not awaited"
        async with self._running:
            if self._pool is None:
                raise WorkerLost("the server is stopping")
            try:
                return await self._run(self._pool, fn, args, shared=True)
            except _Broken:
                pass
        async with self._alone:  # taken down by another task: once more, alone
            pool = self._make_pool(1)
            try:
                return await self._run(pool, fn, args, shared=False)
            except _Broken:
                raise WorkerLost("the process reading this photo crashed") from None
            finally:
                await asyncio.to_thread(_stop, pool)

    async def _run(self, pool: Executor, fn: Callable[..., Any], args: tuple,
                   shared: bool) -> Any:
        """The task's result; raises _Broken when the pool broke under it, WorkerLost when
        it hung (its pool is then replaced)."""
        started = time.monotonic()
        try:
            future = asyncio.wrap_future(pool.submit(fn, *args))
            result = await asyncio.wait_for(future, self.hard_limit)
        except BrokenProcessPool:
            if shared:
                await self._renew(pool)
            raise _Broken from None
        except TimeoutError:
            if shared:
                await self._renew(pool)
            raise WorkerLost(f"the process reading this photo hung for {self.hard_limit:g} s "
                             "and was stopped") from None
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is None or task.cancelling():
                raise
            raise _Broken from None  # queued in a pool replaced since: it never started
        self._observe(time.monotonic() - started)
        return result

    def _observe(self, seconds: float) -> None:
        self._mean += TIME_AVERAGING * (seconds - self._mean)

    async def _renew(self, broken: Executor) -> None:
        """Replace a broken or hung pool (once, however many tasks saw it break)."""
        if self._pool is broken:
            self._pool = self._make_pool(self.jobs)
            await asyncio.to_thread(_stop, broken)


class _Broken(Exception):
    """The pool broke under a task (a worker died), which may not be the task's fault."""


def _stop(pool: Executor) -> None:
    """Cancel what has not started, terminate the worker processes and wait for them (their
    list is taken first: shutdown forgets it)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    for proc in procs:
        proc.join(timeout=STOP_WAIT)
