//! What differs between the engines: quoting, string literals, regular expressions, arrays
//! and timestamps. Everything else in the query is standard SQL that all five accept.

/// `--engine`: the SQL dialect the query is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// DuckDB.
    Duckdb,
    /// ClickHouse (and chDB).
    Clickhouse,
    /// Spark SQL.
    Spark,
    /// Trino, and Athena (engine version 3).
    Trino,
    /// BigQuery (GoogleSQL).
    Bigquery,
}

impl Engine {
    /// A column or table name, quoted. A dotted name (`db.table`) is quoted part by part.
    pub fn ident(self, name: &str) -> String {
        let (open, close) = match self {
            Engine::Spark | Engine::Bigquery => ('`', '`'),
            Engine::Duckdb | Engine::Clickhouse | Engine::Trino => ('"', '"'),
        };
        name.split('.')
            .map(|part| {
                let escaped = part.replace(close, &format!("{close}{close}"));
                format!("{open}{escaped}{close}")
            })
            .collect::<Vec<_>>()
            .join(".")
    }

    /// A string literal. ClickHouse, Spark and BigQuery read backslashes in literals as
    /// escapes, so a regular expression's `\d` is written `\\d` there.
    pub fn lit(self, text: &str) -> String {
        match self {
            Engine::Duckdb | Engine::Trino => format!("'{}'", text.replace('\'', "''")),
            Engine::Clickhouse | Engine::Spark | Engine::Bigquery => {
                format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
            }
        }
    }

    /// The string type for casts.
    pub fn string_type(self) -> &'static str {
        match self {
            Engine::Duckdb | Engine::Trino => "VARCHAR",
            Engine::Clickhouse => "String",
            Engine::Spark | Engine::Bigquery => "STRING",
        }
    }

    /// The 64-bit integer type for casts.
    pub fn int_type(self) -> &'static str {
        match self {
            Engine::Bigquery => "INT64",
            Engine::Clickhouse => "Int64",
            Engine::Duckdb | Engine::Spark | Engine::Trino => "BIGINT",
        }
    }

    /// `x` as a 64-bit integer; NULL stays NULL (ClickHouse's CAST to a type that is not
    /// Nullable refuses a NULL anywhere in the column, even in rows a CASE does not take).
    pub fn int(self, x: &str) -> String {
        match self {
            Engine::Clickhouse => format!("toInt64({x})"),
            Engine::Duckdb | Engine::Spark | Engine::Trino | Engine::Bigquery => {
                format!("CAST({x} AS {})", self.int_type())
            }
        }
    }

    /// `x`, a number's text, as a double.
    pub fn double(self, x: &str) -> String {
        match self {
            Engine::Clickhouse => format!("toFloat64({x})"),
            Engine::Bigquery => format!("CAST({x} AS FLOAT64)"),
            Engine::Duckdb | Engine::Spark | Engine::Trino => format!("CAST({x} AS DOUBLE)"),
        }
    }

    /// `x` as text (NULL stays NULL).
    pub fn text(self, x: &str) -> String {
        match self {
            Engine::Clickhouse => format!("toString({x})"),
            Engine::Duckdb | Engine::Spark | Engine::Trino | Engine::Bigquery => {
                format!("CAST({x} AS {})", self.string_type())
            }
        }
    }

    /// A typed NULL, for the columns a part of the result does not fill.
    pub fn null_text(self) -> String {
        match self {
            Engine::Clickhouse => "CAST(NULL AS Nullable(String))".into(),
            Engine::Duckdb | Engine::Spark | Engine::Trino | Engine::Bigquery => {
                format!("CAST(NULL AS {})", self.string_type())
            }
        }
    }

    /// A typed NULL integer.
    pub fn null_int(self) -> String {
        match self {
            Engine::Clickhouse => "CAST(NULL AS Nullable(Int64))".into(),
            Engine::Duckdb | Engine::Spark | Engine::Trino | Engine::Bigquery => {
                format!("CAST(NULL AS {})", self.int_type())
            }
        }
    }

    /// Whether `x` contains a match of the regular expression `re` (unanchored, as Rust's
    /// `is_match`).
    pub fn matches(self, x: &str, re: &str) -> String {
        let re = self.lit(re);
        match self {
            Engine::Duckdb => format!("regexp_matches({x}, {re})"),
            Engine::Clickhouse => format!("match({x}, {re})"),
            Engine::Spark => format!("({x} RLIKE {re})"),
            Engine::Trino => format!("regexp_like({x}, {re})"),
            Engine::Bigquery => format!("REGEXP_CONTAINS({x}, {re})"),
        }
    }

    /// Every match of `re` in `x` replaced by `with` (a plain string).
    pub fn replace_all(self, x: &str, re: &str, with: &str) -> String {
        let (re, with) = (self.lit(re), self.lit(with));
        match self {
            Engine::Duckdb => format!("regexp_replace({x}, {re}, {with}, 'g')"),
            Engine::Clickhouse => format!("replaceRegexpAll({x}, {re}, {with})"),
            Engine::Spark | Engine::Trino => format!("regexp_replace({x}, {re}, {with})"),
            Engine::Bigquery => format!("REGEXP_REPLACE({x}, {re}, {with})"),
        }
    }

    /// The first match of `re` (without groups) in `x`.
    pub fn extract(self, x: &str, re: &str) -> String {
        let re = self.lit(re);
        match self {
            Engine::Duckdb | Engine::Trino => format!("regexp_extract({x}, {re})"),
            Engine::Clickhouse => format!("extract({x}, {re})"),
            Engine::Spark => format!("regexp_extract({x}, {re}, 0)"),
            Engine::Bigquery => format!("REGEXP_EXTRACT({x}, {re})"),
        }
    }

    /// The characters of `x` (ASCII where it matters here).
    pub fn length(self, x: &str) -> String {
        format!("length({x})")
    }

    /// The sum, as a double, of the numbers in `x` separated by `,` or `:` (`0.5,0.25`; every
    /// part a number: the caller has checked).
    pub fn sum_numbers(self, x: &str) -> String {
        match self {
            Engine::Duckdb => format!(
                "list_sum(list_transform(string_split_regex({x}, '[,:]'), lambda p: CAST(p AS DOUBLE)))"
            ),
            Engine::Clickhouse => {
                format!("arraySum(arrayMap(p -> toFloat64(p), splitByRegexp('[,:]', {x})))")
            }
            Engine::Spark => format!(
                "aggregate(split({x}, '[,:]'), CAST(0 AS DOUBLE), (acc, p) -> acc + CAST(p AS DOUBLE))"
            ),
            Engine::Trino => format!(
                "reduce(regexp_split({x}, '[,:]'), CAST(0 AS DOUBLE), (acc, p) -> acc + CAST(p AS DOUBLE), acc -> acc)"
            ),
            Engine::Bigquery => format!(
                "(SELECT SUM(CAST(p AS FLOAT64)) FROM UNNEST(SPLIT(REPLACE({x}, ':', ','), ',')) AS p)"
            ),
        }
    }

    /// The segments of `path` between slashes, the empty ones left out, each mapped by
    /// `map(segment)` and joined with `/`.
    pub fn map_segments(self, path: &str, map: impl Fn(&str) -> String) -> String {
        let s = "seg";
        let mapped = map(s);
        match self {
            Engine::Duckdb => format!(
                "array_to_string(list_transform(list_filter(string_split({path}, '/'), lambda {s}: {s} <> ''), lambda {s}: {mapped}), '/')"
            ),
            Engine::Clickhouse => format!(
                "arrayStringConcat(arrayMap({s} -> {mapped}, arrayFilter({s} -> {s} != '', splitByChar('/', {path}))), '/')"
            ),
            Engine::Spark | Engine::Trino => format!(
                "array_join(transform(filter(split({path}, '/'), {s} -> {s} <> ''), {s} -> {mapped}), '/')"
            ),
            Engine::Bigquery => format!(
                "ARRAY_TO_STRING(ARRAY(SELECT {mapped} FROM UNNEST(SPLIT({path}, '/')) AS {s} WITH OFFSET AS o WHERE {s} != '' ORDER BY o), '/')"
            ),
        }
    }

    /// Microseconds since the epoch of the timestamp written as text `t` (NULL when the text is
    /// not a timestamp): RFC 3339 / ISO 8601 (no zone: UTC), or nginx's `$time_local`
    /// (`01/Nov/2026:00:06:07 +0000`), the layouts `dupcost logs` reads by name.
    pub fn micros(self, t: &str) -> String {
        let time_local = self.matches(t, "^[0-9]{2}/[A-Za-z]{3}/[0-9]{4}:");
        // The engines that read a zone-less text in the session's zone are given UTC.
        let zoned = self.matches(
            t,
            "(:[0-9]{2}([.][0-9]+)?)(Z|z|[+-][0-9]{2}(:?[0-9]{2})?)$|[+-]00$|UTC$",
        );
        let utc = format!("CASE WHEN {zoned} THEN {t} ELSE concat({t}, '+00:00') END");
        let (local, iso) = match self {
            Engine::Duckdb => (
                format!("epoch_us(try_strptime({t}, '%d/%b/%Y:%H:%M:%S %z'))"),
                format!("epoch_us(TRY_CAST({utc} AS TIMESTAMPTZ))"),
            ),
            Engine::Clickhouse => (
                format!(
                    "toUnixTimestamp64Micro(toDateTime64(parseDateTimeOrNull({t}, '%d/%b/%Y:%H:%i:%s %z', 'UTC'), 6, 'UTC'))"
                ),
                format!("toUnixTimestamp64Micro(parseDateTime64BestEffortOrNull({t}, 6, 'UTC'))"),
            ),
            Engine::Spark => (
                format!("unix_micros(try_to_timestamp({t}, 'dd/MMM/yyyy:HH:mm:ss Z'))"),
                format!("unix_micros(try_to_timestamp({utc}))"),
            ),
            Engine::Trino => (
                format!(
                    "CAST(round(to_unixtime(try(parse_datetime({t}, 'dd/MMM/yyyy:HH:mm:ss Z'))) * 1000000) AS BIGINT)"
                ),
                format!(
                    "CAST(round(to_unixtime(try(from_iso8601_timestamp_nanos(replace({utc}, ' ', 'T')))) * 1000000) AS BIGINT)"
                ),
            ),
            Engine::Bigquery => (
                format!("UNIX_MICROS(SAFE.PARSE_TIMESTAMP('%d/%b/%Y:%H:%M:%S %z', {t}))"),
                format!("UNIX_MICROS(SAFE_CAST({t} AS TIMESTAMP))"),
            ),
        };
        format!("CASE WHEN {time_local} THEN {local} ELSE {iso} END")
    }

    /// The date (`2026-11-01`) of `days` since the epoch.
    pub fn date_of_day(self, days: &str) -> String {
        match self {
            Engine::Duckdb => {
                format!("CAST(DATE '1970-01-01' + CAST({days} AS INTEGER) AS VARCHAR)")
            }
            Engine::Clickhouse => format!("toString(addDays(toDate('1970-01-01'), {days}))"),
            Engine::Spark => {
                format!("CAST(date_add(DATE '1970-01-01', CAST({days} AS INT)) AS STRING)")
            }
            Engine::Trino => format!("CAST(date_add('day', {days}, DATE '1970-01-01') AS VARCHAR)"),
            Engine::Bigquery => {
                format!("CAST(DATE_ADD(DATE '1970-01-01', INTERVAL {days} DAY) AS STRING)")
            }
        }
    }

    /// The comment that starts a line.
    pub fn comment(self, text: &str) -> String {
        format!("-- {text}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_escape_what_each_engine_unescapes() {
        assert_eq!(Engine::Duckdb.lit(r"it's \d"), r"'it''s \d'");
        assert_eq!(Engine::Spark.lit(r"it's \d"), r"'it\'s \\d'");
        assert_eq!(Engine::Bigquery.ident("logs.alb"), "`logs`.`alb`");
        assert_eq!(Engine::Trino.ident(r#"a"b"#), r#""a""b""#);
    }
}
