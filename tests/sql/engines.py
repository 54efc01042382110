"""Runs dupcost's SQL queries on real engines, for tests/sql.rs.

Reads a JSON list of jobs on stdin: {"engine", "csv", "query", "out", "format"}, and
optionally "tables": {NAME: CSV} (e.g. the backend's log for --outcomes-table). Each job
loads the CSV log into the engine as text columns (the view `logs`), runs the query and
exports the result as the engine does (DuckDB's COPY, chDB's output formats, Spark's CSV
writer) to `out`. Jobs of one engine share one session (one Spark start for all).
Also {"engine": "sqlglot", "dialect", "query"}: the query parsed in that dialect.
"""
import glob
import json
import os
import shutil
import sys
import tempfile


def duckdb_jobs(jobs):
    import duckdb

    con = duckdb.connect()
    con.sql("SET TimeZone = 'UTC'")
    for job in jobs:
        path = job["csv"].replace("'", "''")
        for name, csv in [("logs", job["csv"])] + list(job.get("tables", {}).items()):
            path = csv.replace("'", "''")
            con.sql(
                f"CREATE OR REPLACE VIEW {name} AS SELECT * FROM read_csv('{path}', header = true, all_varchar = true, null_padding = true)"
            )
        options = "HEADER" if job["format"] == "csv" else "FORMAT json"
        con.sql(f"COPY ({job['query']}) TO '{job['out']}' ({options})")


def chdb_jobs(jobs):
    from chdb import session

    with tempfile.TemporaryDirectory() as path:
        sess = session.Session(path)
        sess.query("CREATE DATABASE IF NOT EXISTS t")
        for job in jobs:
            query = job["query"]
            for name, csv in [("logs", job["csv"])] + list(job.get("tables", {}).items()):
                sess.query(f"DROP TABLE IF EXISTS t.{name}")
                # Every column as text, as the log has it: no type guessing.
                sess.query(
                    f"CREATE TABLE t.{name} ENGINE = Memory AS SELECT * FROM file('{csv}', 'CSVWithNames') "
                    "SETTINGS input_format_csv_use_best_effort_in_schema_inference = 0, "
                    "schema_inference_make_columns_nullable = 0, "
                    "input_format_csv_allow_variable_number_of_columns = 1"
                )
                query = query.replace(f"FROM {name}\n", f"FROM t.{name}\n")
            fmt = "CSVWithNames" if job["format"] == "csv" else "JSONEachRow"
            result = sess.query(query, fmt)
            with open(job["out"], "wb") as f:
                f.write(result.bytes())
        sess.close()


def spark_jobs(jobs):
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[1]")
        .appName("dupcost-sql-tests")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    for job in jobs:
        for name, csv in [("logs", job["csv"])] + list(job.get("tables", {}).items()):
            spark.read.option("header", True).csv(csv).createOrReplaceTempView(name)
        df = spark.sql(job["query"])
        with tempfile.TemporaryDirectory() as d:
            target = os.path.join(d, "result")
            if job["format"] == "csv":
                df.coalesce(1).write.option("header", True).csv(target)
            else:
                df.coalesce(1).write.json(target)
            (part,) = glob.glob(os.path.join(target, "part-*"))
            shutil.copy(part, job["out"])
    spark.stop()


def sqlglot_jobs(jobs):
    import sqlglot

    for job in jobs:
        sqlglot.parse_one(job["query"], read=job["dialect"], error_level=sqlglot.ErrorLevel.RAISE)


RUNNERS = {"duckdb": duckdb_jobs, "clickhouse": chdb_jobs, "spark": spark_jobs, "sqlglot": sqlglot_jobs}

if __name__ == "__main__":
    jobs = json.load(sys.stdin)
    for engine, run in RUNNERS.items():
        mine = [j for j in jobs if j["engine"] == engine]
        if mine:
            run(mine)
