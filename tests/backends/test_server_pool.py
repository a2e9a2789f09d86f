"""Several replicas of one served model: requests spread by free room, per-server limits, and
failover when a server stops answering (unit tests of the pool, then real loopback servers)."""

from __future__ import annotations

import asyncio
import signal
import time

import pytest

from parakh.backends.base import ChatRequest, Completion
from parakh.backends.openai_compat import OpenAIBackend
from parakh.backends.runner import generate_all
from parakh.backends.server_pool import TIMEOUTS_TO_DOWN, Outcome, ServerPool
from parakh.config.model import OpenAIModel, Sampling
from tests.support.servers import free_port

from .conftest import server_stats


def _requests(n: int) -> list[ChatRequest]:
    return [
        ChatRequest(key=f"q{i}", messages=(("user", f"question {i}"),), sampling=Sampling())
        for i in range(n)
    ]


def _model(**settings: object) -> OpenAIModel:
    return OpenAIModel.model_validate(
        {
            "name": "replicas",
            "backend": "openai",
            "model_id": "fault-model",
            "timeout_s": 5.0,
            "max_retries": 4,
            "backoff_s": 0.01,
            "max_backoff_s": 1.0,
            "server_cooldown_s": 0.2,
            **settings,
        }
    )


def test_requests_go_to_the_server_with_most_free_room() -> None:
    async def scenario() -> list[str]:
        pool = ServerPool([("a", 1), ("b", 3)], cooldown_s=1.0, max_cooldown_s=8.0)
        return [(await pool.acquire()).url for _ in range(4)]

    assert asyncio.run(scenario()) == ["a", "b", "b", "b"]


def test_a_full_pool_waits_for_a_release() -> None:
    async def scenario() -> tuple[str, float]:
        pool = ServerPool([("a", 1)], cooldown_s=1.0, max_cooldown_s=8.0)
        first = await pool.acquire()
        asyncio.get_running_loop().call_later(
            0.1, lambda: asyncio.ensure_future(pool.release(first, Outcome.ANSWERED))
        )
        start = time.monotonic()
        second = await pool.acquire()
        return second.url, time.monotonic() - start

    url, waited = asyncio.run(scenario())
    assert url == "a" and waited >= 0.09


def test_an_unreachable_server_is_taken_out_then_probed_once_and_its_cooldown_doubles() -> None:
    async def scenario() -> None:
        pool = ServerPool([("a", 2), ("b", 2)], cooldown_s=0.1, max_cooldown_s=0.3)
        a, b = pool.servers
        await pool.release(await pool.acquire(), Outcome.UNREACHABLE)  # "a" had most room
        assert a.down and pool.others_up(a) and not pool.others_up(b)
        assert [(await pool.acquire()).url for _ in range(2)] == ["b", "b"]  # "a" is out
        await asyncio.sleep(0.12)
        probe = await pool.acquire()
        assert probe is a and a.room(time.monotonic()) == 0  # one probe at a time
        await pool.release(probe, Outcome.UNREACHABLE)
        assert a.cooldown_s == pytest.approx(0.2)  # doubled
        await asyncio.sleep(0.22)
        probe = await pool.acquire()
        await pool.release(probe, Outcome.UNREACHABLE)
        assert a.cooldown_s == pytest.approx(0.3)  # capped
        await asyncio.sleep(0.32)
        probe = await pool.acquire()
        await pool.release(probe, Outcome.ANSWERED)
        assert not a.down and a.room(time.monotonic()) == 2

    asyncio.run(scenario())


def test_when_nothing_answers_requests_go_on_at_once_into_their_retry_budget() -> None:
    async def scenario() -> float:
        pool = ServerPool([("only", 4)], cooldown_s=30.0, max_cooldown_s=30.0)
        await pool.release(await pool.acquire(), Outcome.UNREACHABLE)
        assert pool.servers[0].down
        start = time.monotonic()
        for _ in range(3):
            await pool.release(await pool.acquire(), Outcome.UNREACHABLE)
        return time.monotonic() - start

    assert asyncio.run(scenario()) < 1.0  # no 30 s cooldown wait


def test_timeouts_take_a_server_out_only_when_they_repeat() -> None:
    async def scenario() -> None:
        pool = ServerPool([("a", 8)], cooldown_s=5.0, max_cooldown_s=5.0)
        (a,) = pool.servers
        for _ in range(TIMEOUTS_TO_DOWN - 1):
            await pool.release(await pool.acquire(), Outcome.TIMED_OUT)
        assert not a.down
        await pool.release(await pool.acquire(), Outcome.ANSWERED)  # resets the streak
        for _ in range(TIMEOUTS_TO_DOWN - 1):
            await pool.release(await pool.acquire(), Outcome.TIMED_OUT)
        assert not a.down
        await pool.release(await pool.acquire(), Outcome.TIMED_OUT)
        assert a.down

    asyncio.run(scenario())


def test_failures_of_requests_sent_before_the_server_went_down_do_not_extend_its_cooldown() -> None:
    async def scenario() -> None:
        pool = ServerPool([("a", 4), ("b", 4)], cooldown_s=0.5, max_cooldown_s=30.0)
        in_flight = [await pool.acquire() for _ in range(8)]
        for server in in_flight:
            if server.url == "a":
                await pool.release(server, Outcome.UNREACHABLE)
        assert pool.servers[0].cooldown_s == 0.5

    asyncio.run(scenario())


@pytest.mark.server
def test_two_servers_share_the_work_within_their_own_limits(fault_server) -> None:
    first, second = fault_server("--latency", "0.05"), fault_server("--latency", "0.05")
    model = _model(
        servers=[
            {"base_url": first.base_url, "concurrency": 1},
            {"base_url": second.base_url, "concurrency": 3},
        ]
    )
    results = generate_all(OpenAIBackend(model), _requests(40))
    assert len(results) == 40 and all(c.ok and c.attempts == 1 for _, c in results)
    one, three = server_stats(first), server_stats(second)
    assert one["requests"] + three["requests"] == 40
    assert one["max_in_flight"] == 1 and three["max_in_flight"] == 3
    assert three["requests"] > one["requests"] > 0


@pytest.mark.server
def test_a_server_killed_mid_run_loses_no_item(fault_server) -> None:
    doomed, survivor = fault_server("--latency", "0.05"), fault_server("--latency", "0.05")
    backend = OpenAIBackend(_model(base_url=[doomed.base_url, survivor.base_url], concurrency=4))
    requests = _requests(120)
    results = {}

    def take(request: ChatRequest, completion: Completion) -> None:
        results[request.key] = completion
        if len(results) == 30:
            doomed.process.send_signal(signal.SIGKILL)
            doomed.process.wait(timeout=10)

    generate_all(backend, requests, take)
    assert sorted(results) == sorted(r.key for r in requests)
    assert all(c.ok for c in results.values()), [c.error for c in results.values() if not c.ok]
    # Everything after the kill was answered by the survivor.
    assert server_stats(survivor)["ok"] >= 120 - 30 - 8
    assert any(c.attempts > 1 for c in results.values())  # some were in flight on the dead one
    assert backend.last_pool is not None
    dead = backend.last_pool.servers[0]
    assert dead.url == doomed.base_url and dead.failures >= 1


@pytest.mark.server
def test_a_server_that_never_answers_is_routed_around(fault_server) -> None:
    alive = fault_server("--latency", "0.02")
    nowhere = f"http://127.0.0.1:{free_port()}/v1"
    backend = OpenAIBackend(_model(base_url=[nowhere, alive.base_url], concurrency=4))
    results = generate_all(backend, _requests(60))
    assert len(results) == 60 and all(c.ok for _, c in results)
    assert server_stats(alive)["ok"] == 60
    assert backend.last_pool is not None
    # One failure takes it out; then only a probe per cooldown reaches it.
    assert backend.last_pool.servers[0].requests <= 10


@pytest.mark.server
def test_a_single_dead_server_ends_in_error_rows_quickly() -> None:
    nowhere = f"http://127.0.0.1:{free_port()}/v1"
    backend = OpenAIBackend(_model(base_url=nowhere, concurrency=4, max_retries=2))
    start = time.monotonic()
    results = generate_all(backend, _requests(20))
    assert time.monotonic() - start < 10
    assert len(results) == 20
    assert all(not c.ok and c.attempts == 3 for _, c in results)
    assert all("connection error" in (c.error or "") for _, c in results)


def test_servers_and_a_base_url_are_one_or_the_other() -> None:
    with pytest.raises(ValueError, match="either `base_url` or `servers`"):
        _model(base_url="http://a/v1", servers=[{"base_url": "http://b/v1"}])
    with pytest.raises(ValueError, match="empty list"):
        _model(base_url=[])
