-- Windows are 1–31 622 400 s (366 days) long. Earlier builds accepted longer ones, which no date
-- arithmetic can follow (every summary of the user failed): bring any stored window down to the
-- longest allowed, in the realm configuration, the mappings, subscriptions' term snapshots and
-- the window entitlements.
UPDATE points_default_config SET free_periodic_quota_windows = (
  SELECT json_group_array(json_object('windowSeconds', min(json_extract(value, '$.windowSeconds'), 31622400), 'limit', json_extract(value, '$.limit')))
  FROM json_each(free_periodic_quota_windows))
WHERE EXISTS (SELECT 1 FROM json_each(free_periodic_quota_windows) WHERE json_extract(value, '$.windowSeconds') > 31622400);

UPDATE entitlement_mappings SET quota_windows = (
  SELECT json_group_array(json_object('windowSeconds', min(json_extract(value, '$.windowSeconds'), 31622400), 'limit', json_extract(value, '$.limit')))
  FROM json_each(quota_windows))
WHERE EXISTS (SELECT 1 FROM json_each(quota_windows) WHERE json_extract(value, '$.windowSeconds') > 31622400);

UPDATE subscriptions SET terms = json_set(terms, '$.quotaWindows', (
  SELECT json_group_array(json_object('windowSeconds', min(json_extract(value, '$.windowSeconds'), 31622400), 'limit', json_extract(value, '$.limit')))
  FROM json_each(terms, '$.quotaWindows')))
WHERE EXISTS (SELECT 1 FROM json_each(terms, '$.quotaWindows') WHERE json_extract(value, '$.windowSeconds') > 31622400);

UPDATE points_window_entitlements SET windows = (
  SELECT json_group_array(json_object('windowSeconds', min(json_extract(value, '$.windowSeconds'), 31622400), 'limit', json_extract(value, '$.limit')))
  FROM json_each(windows))
WHERE EXISTS (SELECT 1 FROM json_each(windows) WHERE json_extract(value, '$.windowSeconds') > 31622400);
