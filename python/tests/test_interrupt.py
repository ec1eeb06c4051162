"""Ctrl-C: a run in progress stops and raises KeyboardInterrupt, without killing Python."""

import signal
import subprocess
import sys
import time

SCRIPT = r"""
import sys, time
import pyarrow  # results are pyarrow tables: loaded before the clock starts, not in the window
import sudolab
# 17-clue-like minimal puzzles under the plain backtracker, no time limit: hours of work.
lines = [l.split()[0] for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
print("started", flush=True)
began = time.monotonic()
try:
    sudolab.count(lines * 100, strategy="scan", limit=0, jobs=1)
except KeyboardInterrupt:
    print(f"interrupted after {time.monotonic() - began:.1f}s", flush=True)
    # Python is still alive and the package still works.
    print(sudolab.count("4..3.....1....2.")["verdict"].to_pylist(), flush=True)
    sys.exit(0)
print("finished?", flush=True)
sys.exit(1)
"""


def test_ctrl_c_stops_a_run_and_raises_keyboard_interrupt(root):
    path = root / "corpora" / "generated" / "9x9-minimal.txt"
    child = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline() == "started\n"
    time.sleep(1.5)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    waited = time.monotonic() - sent
    assert child.returncode == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("interrupted after ")
    assert lines[1] == "['unique']"
    assert waited < 5, f"Ctrl-C took {waited:.1f}s to stop the run"


def test_other_python_threads_run_during_a_search(root):
    import threading

    path = root / "corpora" / "generated" / "9x9-minimal.txt"
    lines = [l.split()[0] for l in path.read_text().splitlines() if l and not l.startswith("#")]
    done = threading.Event()

    def work():
        try:
            import sudolab

            sudolab.count(lines * 20, strategy="mrv", jobs=1)
        finally:
            done.set()

    worker = threading.Thread(target=work)
    began = time.monotonic()
    worker.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
    worker.join()
    elapsed = time.monotonic() - began
    # With the GIL held by the search, this loop would stand still until the end.
    assert elapsed > 0.05
    assert ticks / elapsed > 100_000, (ticks, elapsed)
