"""A real S3-compatible server for the tests: moto's standalone server on 127.0.0.1.

It runs as its own process on a free loopback port with request signing checked (the
first few requests are unauthenticated so a user and its access key can be made through
moto's IAM; every later request must be signed with that key), so a wrong secret is
refused as a real store refuses it. Starting waits a bounded time; `stop` always kills
the process.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Dict, Optional

HOST = "127.0.0.1"
REGION = "us-east-1"
START_TIMEOUT = 60.0  # seconds for the server to answer
# Unauthenticated requests allowed at start: create user, put its policy, create its key.
BOOTSTRAP_REQUESTS = 3


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class S3Server:
    """moto_server on 127.0.0.1:<free port>, with one IAM user's access key."""

    def __init__(self, log_dir: Path):
        self.port = _free_port()
        self.endpoint = f"http://{HOST}:{self.port}"
        self.log_path = Path(log_dir) / "moto_server.log"
        self.process: Optional[subprocess.Popen] = None
        self.access_key: Optional[str] = None
        self.secret_key: Optional[str] = None

    def start(self) -> "S3Server":
        env = dict(os.environ, INITIAL_NO_AUTH_ACTION_COUNT=str(BOOTSTRAP_REQUESTS),
                   AWS_EC2_METADATA_DISABLED="true")
        # Credentials or endpoints of the environment must not reach the server or clients.
        for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                     "AWS_ENDPOINT_URL", "AWS_PROFILE"):
            env.pop(name, None)
        log = open(self.log_path, "wb")
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "moto.server", "-H", HOST, "-p", str(self.port)],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
        finally:
            log.close()
        try:
            self._wait_until_up()
            self._make_credentials()
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_until_up(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"moto server exited with {self.process.returncode}; "
                                   f"log:\n{self.log_path.read_text(errors='replace')[-2000:]}")
            try:
                # moto's own management API: no AWS request, so no bootstrap slot is used.
                with urllib.request.urlopen(f"{self.endpoint}/moto-api/data.json", timeout=2):
                    return
            except (urllib.error.URLError, OSError):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"moto server did not answer on {self.endpoint} within "
                                       f"{START_TIMEOUT:.0f}s; log: {self.log_path}")
                time.sleep(0.2)

    def _make_credentials(self) -> None:
        import boto3

        iam = boto3.client("iam", endpoint_url=self.endpoint, region_name=REGION,
                           aws_access_key_id="bootstrap", aws_secret_access_key="bootstrap")
        iam.create_user(UserName="tests")
        iam.put_user_policy(UserName="tests", PolicyName="everything", PolicyDocument=json.dumps(
            {"Version": "2012-10-17",
             "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}))
        key = iam.create_access_key(UserName="tests")["AccessKey"]
        self.access_key, self.secret_key = key["AccessKeyId"], key["SecretAccessKey"]

    def client(self):
        """A boto3 S3 client with the server's credentials (for checks beside pyarrow)."""
        import boto3

        return boto3.client("s3", endpoint_url=self.endpoint, region_name=REGION,
                            aws_access_key_id=self.access_key,
                            aws_secret_access_key=self.secret_key)

    def create_bucket(self, name: str) -> str:
        self.client().create_bucket(Bucket=name)
        return name

    def catalog_options(self, bucket: str, prefix: str = "warehouse",
                        secret: Optional[str] = None) -> Dict[str, str]:
        """pypaimon catalog options for a warehouse at s3://<bucket>/<prefix>."""
        return {
            "warehouse": f"s3://{bucket}/{prefix}",
            "fs.s3.endpoint": self.endpoint,
            "fs.s3.accessKeyId": self.access_key,
            "fs.s3.accessKeySecret": self.secret_key if secret is None else secret,
            "fs.s3.region": REGION,
            "fs.s3.path-style-access": "true",
        }

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.kill()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        self.process = None
