-- The article's idempotency table, as dupcost's Postgres key-store model counts it
-- (src/model/keystore.rs), and the deterministic saved responses the calibration stores.
-- Shared by bench/keystore.sh and tests/keystore_real.rs: change it in one place only.

CREATE TABLE idempotency_keys (
    key             text PRIMARY KEY,      -- the client's Idempotency-Key (a UUID: 36 bytes)
    request_hash    text NOT NULL,         -- sha256 of the request, hex: 64 bytes
    state           text NOT NULL,         -- 'started' while running, 'completed' after
    response_status integer,               -- the saved HTTP status
    response_body   jsonb,                 -- the saved response body
    claimed_at      timestamptz NOT NULL DEFAULT now()
);
-- The sweeper's index: DELETE ... WHERE claimed_at < now() - ttl.
CREATE INDEX idempotency_keys_claimed_at ON idempotency_keys (claimed_at);

-- The saved responses: realistic order JSON. 2048 line items are made once; the body of
-- request `i` takes a run of consecutive items (starting at item i % 1024) and pads with a hex
-- "note" to exactly `size` bytes (ASCII). Ids, SKUs and amounts come from md5 so they differ
-- like real ones do; field names and product words repeat as in a real API, and that is what
-- pglz finds to compress (a 10 kB body to a third of its text, see docs/KEYSTORE.md).
CREATE TABLE idem_item (
    k    int PRIMARY KEY,
    item text NOT NULL,
    start int NOT NULL,  -- offset of the item in the items joined by ','
    stop  int NOT NULL   -- offset just after it
);
INSERT INTO idem_item (k, item, start, stop)
SELECT k, item,
       sum(length(item) + 1) OVER (ORDER BY k) - length(item) - 1,
       sum(length(item) + 1) OVER (ORDER BY k) - 1
FROM (
    SELECT k, '{"sku":"SKU-' || substr(g, 1, 8) || '","name":"'
              || (ARRAY['Espresso', 'Filter', 'Beans', 'Grinder', 'Mug', 'Kettle', 'Scale',
                        'Paper', 'Oat', 'Milk', 'Dark', 'Roast', 'Decaf', 'Travel', 'Gift',
                        'Box', 'Subscription', 'Monthly', 'Large', 'Small'])
                   [1 + ('x' || substr(g, 9, 2))::bit(8)::int % 20] || ' '
              || (ARRAY['250g', '500g', '1kg', 'Blend', 'Pack', 'Set', 'Refill', 'Bundle'])
                   [1 + ('x' || substr(g, 11, 2))::bit(8)::int % 8]
              || '","quantity":' || (1 + ('x' || substr(g, 13, 1))::bit(4)::int % 5)
              || ',"unit_amount":' || (100 + ('x' || substr(g, 14, 3))::bit(12)::int) || '}' AS item
    FROM (SELECT k, md5('item' || k) AS g FROM generate_series(0, 2047) AS k) AS gen
) AS items;
CREATE INDEX idem_item_stop ON idem_item (stop) INCLUDE (k);

CREATE FUNCTION idem_body(i bigint, size int) RETURNS text
LANGUAGE plpgsql STABLE STRICT AS $$
DECLARE
    h text := md5(i::text);
    head text := '{"id":"ord_' || substr(h, 1, 24) || '","status":"paid","amount":'
                 || (10000 + ('x' || substr(h, 25, 4))::bit(16)::int % 90000) || ',"items":[';
    tail_len int := length('],"note":""}');
    budget int := size - length(head) - tail_len;
    first int := i % 1024;
    first_start int;
    last int;
    slice text := '';
BEGIN
    IF budget < 0 THEN
        -- Too small for an order: a bare note (8 bytes of JSON around the hex).
        RETURN '{"n":"' || rpad('', greatest(size - 8, 0), h) || '"}';
    END IF;
    SELECT start INTO first_start FROM idem_item WHERE k = first;
    SELECT max(k) INTO last FROM idem_item WHERE stop <= first_start + budget;
    IF last >= first THEN
        SELECT string_agg(item, ',' ORDER BY k) INTO slice
        FROM idem_item WHERE k BETWEEN first AND last;
    END IF;
    RETURN head || slice || '],"note":"' || rpad('', budget - length(slice), h) || '"}';
END $$;

-- Request `i`'s idempotency key (a UUID as text, 36 bytes) and request hash (sha256, hex).
CREATE FUNCTION idem_key(i bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT md5('key' || i)::uuid::text $$;
CREATE FUNCTION idem_hash(i bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT encode(sha256(('request' || i)::bytea), 'hex') $$;

-- The bodies of one run: 1024 distinct bodies of one size, made once by idem_body (which is
-- slow), that request `i` takes as `i % 1024` with its own order id written in. Every row
-- still stores (and pglz compresses) its own copy, so the sizes are those of distinct bodies.
CREATE TABLE idem_pool (k int PRIMARY KEY, body text NOT NULL);
CREATE FUNCTION idem_fill_pool(size int) RETURNS void
LANGUAGE sql AS $$
    TRUNCATE idem_pool;
    INSERT INTO idem_pool SELECT k, idem_body(k, size) FROM generate_series(0, 1023) AS k;
$$;
-- Request `i`'s body from the pool: its own `{"id":"ord_<24 hex>` and the pool's rest.
CREATE FUNCTION idem_pool_body(i bigint) RETURNS text
LANGUAGE sql STABLE STRICT AS $$
    SELECT CASE WHEN body LIKE '{"id":"ord_%'
                THEN '{"id":"ord_' || substr(md5(i::text), 1, 24) || substr(body, 36)
                ELSE body END
    FROM idem_pool WHERE k = i % 1024
$$;

-- The article's claim of requests lo..hi, saved response included (the article claims the
-- key, then updates the row with the response; this stores the final row in one statement,
-- see docs/KEYSTORE.md). Request `i` was claimed at (i / live) days after 2024-01-01, so
-- `live` rows span one TTL of 24 hours.
CREATE FUNCTION idem_claim(lo bigint, hi bigint, live bigint) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO idempotency_keys
        (key, request_hash, state, response_status, response_body, claimed_at)
    SELECT idem_key(i), idem_hash(i), 'completed', 201, idem_pool_body(i)::jsonb,
           timestamptz '2024-01-01 00:00:00+00' + i * (86400.0 / live) * interval '1 second'
    FROM generate_series(lo, hi) AS i
    ON CONFLICT (key) DO NOTHING;
$$;

-- The sweeper, run when request `now_i` has just been claimed: deletes the keys older than
-- the TTL (24 hours), that is requests up to now_i - live.
CREATE FUNCTION idem_sweep(now_i bigint, live bigint) RETURNS void
LANGUAGE sql AS $$
    DELETE FROM idempotency_keys
    WHERE claimed_at < timestamptz '2024-01-01 00:00:00+00'
                       + now_i * (86400.0 / live) * interval '1 second' - interval '24 hours'
                       + (0.5 * 86400.0 / live) * interval '1 second';
$$;

-- What Redis stores for request `i`: the status, the request hash and the body (from the
-- pool), as JSON: the body plus 104 bytes.
CREATE FUNCTION idem_value(i bigint) RETURNS text
LANGUAGE sql STABLE STRICT AS $$
    SELECT '{"status":201,"request_hash":"' || idem_hash(i) || '","body":' || idem_pool_body(i) || '}'
$$;

-- `SET idem:<key> <value> EX <ttl> NX` in the Redis protocol, less its final "\n" (psql -At
-- ends every row with one), for `redis-cli --pipe`.
CREATE FUNCTION idem_redis_set(i bigint, ttl int) RETURNS text
LANGUAGE sql STABLE STRICT AS $$
    SELECT '*6' || E'\r\n$3\r\nSET\r\n'
        || '$' || octet_length(k) || E'\r\n' || k || E'\r\n'
        || '$' || octet_length(v) || E'\r\n' || v || E'\r\n'
        || E'$2\r\nEX\r\n' || '$' || octet_length(ttl::text) || E'\r\n' || ttl || E'\r\n'
        || E'$2\r\nNX\r'
    FROM (SELECT 'idem:' || idem_key(i) AS k, idem_value(i) AS v) AS kv
$$;
