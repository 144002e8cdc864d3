"""A SparkSession for the pipeline: local[*] by default, every address on loopback.

Executors need Python with pyfileindex (native core), pypaimon and pyarrow. In local mode
that is this interpreter; on a cluster it is a packed virtual environment shipped with
`spark.archives` (see packing.py) and unpacked next to each executor as `environment/`.
"""

import os
import sys
from dataclasses import dataclass, field
from typing import Dict, Optional

DEFAULT_MASTER = "local[*]"
LOOPBACK = "127.0.0.1"
ARCHIVE_ALIAS = "environment"


@dataclass
class SessionSettings:
    master: str = DEFAULT_MASTER
    app_name: str = "pyfileindex"
    # Path of a packed environment (venv-pack archive) for the executors; None: executors
    # run this interpreter (local mode, or a cluster on this machine).
    archive: Optional[str] = None
    loopback: bool = True
    ui: bool = False
    conf: Dict[str, str] = field(default_factory=dict)

    def spark_conf(self) -> Dict[str, str]:
        conf = {
            "spark.sql.session.timeZone": "UTC",
            "spark.ui.enabled": "true" if self.ui else "false",
            "spark.ui.showConsoleProgress": "false",
            "spark.pyspark.driver.python": sys.executable,
            # Arrow batches of this many rows reach the mapInArrow tasks.
            "spark.sql.execution.arrow.maxRecordsPerBatch": "65536",
            # Python workers start in the driver's directory (local mode); in a source
            # checkout that directory's pyfileindex/ (no compiled core) would shadow the
            # installed package. Python >= 3.11 then leaves it off sys.path.
            "spark.executorEnv.PYTHONSAFEPATH": "1",
        }
        if self.loopback:
            conf.update({"spark.driver.host": LOOPBACK, "spark.driver.bindAddress": LOOPBACK})
        if self.archive:
            conf["spark.archives"] = f"{os.path.abspath(self.archive)}#{ARCHIVE_ALIAS}"
            conf["spark.pyspark.python"] = f"./{ARCHIVE_ALIAS}/bin/python"
        else:
            conf["spark.pyspark.python"] = sys.executable
        conf.update(self.conf)
        return conf


def spark_session(master: Optional[str] = None, app_name: str = "pyfileindex",
                  archive: Optional[str] = None, conf: Optional[Dict[str, str]] = None,
                  loopback: bool = True, ui: bool = False):
    """Get or create the SparkSession the pipeline runs on."""
    settings = SessionSettings(master or DEFAULT_MASTER, app_name, archive, loopback, ui,
                               dict(conf or {}))
    return session_from(settings)


def session_from(settings: SessionSettings):
    if settings.loopback:
        # The JVM picks its own address from this before any conf is read.
        os.environ.setdefault("SPARK_LOCAL_IP", LOOPBACK)
    # PySpark hands the executors the Python named here (a new context reads it).
    os.environ["PYSPARK_PYTHON"] = settings.spark_conf()["spark.pyspark.python"]
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.master(settings.master).appName(settings.app_name)
    for key, value in settings.spark_conf().items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    return session
