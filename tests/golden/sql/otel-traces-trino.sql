exit Some(2)
error: --preset otel-traces is the ClickHouse exporter's table: give --engine clickhouse (not trino)
