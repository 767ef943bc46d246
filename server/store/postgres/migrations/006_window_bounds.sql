-- The PostgreSQL twin of server/store/sqlite/migrations/006_window_bounds.sql. Windows are 1–31 622 400 s
-- (366 days) long; earlier builds accepted longer ones, which no date arithmetic can follow. A
-- database filled from such a build has every stored window brought down to the longest allowed:
-- the realm configuration, the mappings, subscriptions' term snapshots and the window
-- entitlements (JSON text, rewritten in the order it was written).
CREATE FUNCTION pg_temp.capped_windows(list TEXT) RETURNS TEXT LANGUAGE sql AS $$
  SELECT json_agg(json_build_object('windowSeconds', least((w->>'windowSeconds')::bigint, 31622400), 'limit', w->'limit') ORDER BY i)::text
  FROM jsonb_array_elements(list::jsonb) WITH ORDINALITY AS t(w, i)
$$;
CREATE FUNCTION pg_temp.too_long(list TEXT) RETURNS BOOLEAN LANGUAGE sql AS $$
  SELECT EXISTS (SELECT 1 FROM jsonb_array_elements(list::jsonb) w WHERE (w->>'windowSeconds')::bigint > 31622400)
$$;

UPDATE points_default_config SET free_periodic_quota_windows = pg_temp.capped_windows(free_periodic_quota_windows)
WHERE free_periodic_quota_windows IS NOT NULL AND pg_temp.too_long(free_periodic_quota_windows);

UPDATE entitlement_mappings SET quota_windows = pg_temp.capped_windows(quota_windows)
WHERE quota_windows IS NOT NULL AND pg_temp.too_long(quota_windows);

UPDATE subscriptions SET terms = jsonb_set(terms::jsonb, '{quotaWindows}', pg_temp.capped_windows(terms::jsonb->>'quotaWindows')::jsonb)::text
WHERE jsonb_typeof(terms::jsonb->'quotaWindows') = 'array' AND pg_temp.too_long(terms::jsonb->>'quotaWindows');

UPDATE points_window_entitlements SET windows = pg_temp.capped_windows(windows)
WHERE pg_temp.too_long(windows);
