"""The PyFlink gateway JVM of this process: finding it, dumping its threads, killing it.

PyFlink starts one JVM (PythonGatewayServer, which runs every local mini-cluster job) and
keeps no handle on it; the engine suite needs one to turn a hung statement into a failure:
killing the JVM makes the py4j call waiting on it fail at once."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Optional

GATEWAY_MAIN_CLASS = b"org.apache.flink.client.python.PythonGatewayServer"


def _parent_pid(proc_entry: Path) -> int:
    # /proc/PID/stat: "PID (command) STATE PPID ..."; the command may hold spaces or ')'.
    stat = (proc_entry / "stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def gateway_jvm_pid() -> Optional[int]:
    """The pid of the gateway JVM this process launched, or None when there is none (or no
    /proc to look in)."""
    me = os.getpid()
    try:
        entries = list(Path("/proc").iterdir())
    except OSError:
        return None
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            if _parent_pid(entry) != me:
                continue
            cmdline = (entry / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue  # the process ended meanwhile
        if GATEWAY_MAIN_CLASS in cmdline.split(b"\0"):
            return int(entry.name)
    return None


def _jcmd() -> Optional[str]:
    java_home = os.environ.get("JAVA_HOME")
    if java_home and os.access(Path(java_home) / "bin" / "jcmd", os.X_OK):
        return str(Path(java_home) / "bin" / "jcmd")
    return shutil.which("jcmd")


def dump_threads(pid: int, path: Path) -> str:
    """Writes the JVM's thread dump to `path`; says where it went."""
    jcmd = _jcmd()
    if jcmd:
        try:
            with open(path, "w") as out:
                subprocess.run([jcmd, str(pid), "Thread.print"], stdout=out,
                               stderr=subprocess.STDOUT, timeout=60, check=False)
            return f"thread dump in {path}"
        except (OSError, subprocess.TimeoutExpired) as error:
            return f"no thread dump ({jcmd} failed: {error})"
    # Without jcmd the JVM prints the dump to its own standard output.
    try:
        os.kill(pid, signal.SIGQUIT)
        time.sleep(2)
    except OSError as error:
        return f"no thread dump (SIGQUIT failed: {error})"
    return "thread dump on the JVM's standard output (no jcmd found)"


def kill(pid: int) -> None:
    """Kills the JVM and waits (briefly) until it is gone."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return
    for _ in range(100):
        try:
            finished, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return
        if finished:
            return
        time.sleep(0.1)
