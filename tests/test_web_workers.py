"""The worker pool behind the server: bounded, and it survives crashed and hung workers."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor

import pytest

from pipeline.web.workers import Busy, WorkerLost, Workers


def crash() -> None:
    os._exit(7)


def nap(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def pool(jobs: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"))


def run(coro):
    return asyncio.run(coro)


async def started(jobs=1, queue=2, hard_limit=30.0) -> Workers:
    workers = Workers(pool, jobs, queue, hard_limit)
    await workers.start()
    return workers


def test_a_task_runs_in_another_process():
    async def go():
        workers = await started()
        try:
            return await workers.call(nap, 0)
        finally:
            await workers.close()

    assert run(go()) != os.getpid()


def test_beyond_the_queue_requests_are_refused_with_a_wait():
    workers = Workers(pool, jobs=2, queue=3, hard_limit=None)
    holds = [workers.admit() for _ in range(5)]
    for hold in holds:
        hold.__enter__()
    with pytest.raises(Busy) as busy, workers.admit():
        pass
    assert 1 <= busy.value.retry_after <= 120
    holds[0].__exit__(None, None, None)
    with workers.admit():
        assert workers.admitted == 5


def test_a_crashed_worker_is_replaced():
    async def go():
        workers = await started()
        try:
            with pytest.raises(WorkerLost, match="crashed"):
                await workers.call(crash)
            return await workers.call(nap, 0)
        finally:
            await workers.close()

    assert run(go()) > 0


def test_a_task_taken_down_by_another_tasks_crash_is_tried_again():
    async def go():
        workers = await started(jobs=2)
        try:
            survivor = asyncio.create_task(workers.call(nap, 0.6))
            await asyncio.sleep(0.2)
            with pytest.raises(WorkerLost):
                await workers.call(crash)
            return await survivor
        finally:
            await workers.close()

    assert run(go()) > 0


def test_a_hung_worker_is_stopped_after_the_hard_limit():
    async def go():
        workers = await started(hard_limit=0.5)
        try:
            t0 = time.monotonic()
            with pytest.raises(WorkerLost, match="hung"):
                await workers.call(nap, 30)
            elapsed = time.monotonic() - t0
            pid = await workers.call(nap, 0)
            return elapsed, pid
        finally:
            await workers.close()

    elapsed, pid = run(go())
    assert elapsed < 10 and pid > 0


def test_close_stops_the_worker_processes():
    async def go():
        workers = await started(jobs=2)
        pids = {await workers.call(nap, 0.2) for _ in range(2)}
        await workers.close()
        return pids

    for pid in run(go()):
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
