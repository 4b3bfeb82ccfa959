"""Cycles are collected on the GUI thread only while a window is open."""
import gc
import threading

from app import collector


def test_worker_threads_never_collect_while_a_window_is_open(qtbot):
    # The suite's own hold (tests/conftest.py) is active: automatic
    # collection is off, the GUI-thread timer collects.
    assert not gc.isenabled()
    seen = []

    def callback(phase, info):
        if phase == "start":
            seen.append(threading.current_thread() is threading.main_thread())

    gc.callbacks.append(callback)
    try:
        def churn():
            for _ in range(200_000):
                a = []
                a.append(a)                      # a cycle per loop: garbage

        worker = threading.Thread(target=churn)
        worker.start()
        worker.join()
        assert seen == []                        # the worker tripped no collection
        qtbot.waitUntil(lambda: len(seen) > 0, timeout=5_000)
        assert all(seen)                         # the timer collected, on the GUI thread
    finally:
        gc.callbacks.remove(callback)


def test_automatic_collection_returns_when_the_last_window_closes(qapp):
    c = collector.hold()                          # a second holder (the suite holds one)
    collector.release()
    assert not gc.isenabled() and c.timer.isActive()
    collector.release()                           # the suite's hold, released early
    assert gc.isenabled()
    collector.hold()                              # give it back for the fixture's release
