-- Issue 35, item 7: a change to a commute day or pattern (time, seats, price) is e-mailed and
-- pushed as well as shown in the app. Such notices carry `change` in their data; this is the
-- outbox trigger of migration 0017 with that one condition added.
DROP TRIGGER `notifications_outbox`;
--> statement-breakpoint
CREATE TRIGGER `notifications_outbox` AFTER INSERT ON `notifications`
WHEN NEW.type = 'ride_request'
  OR (NEW.type = 'ride_update' AND json_extract(NEW.data, '$.status') IN ('accepted', 'rejected', 'cancelled'))
  OR (NEW.type = 'ride_update' AND json_extract(NEW.data, '$.saved_search_id') IS NOT NULL)
  OR (NEW.type = 'ride_update' AND json_extract(NEW.data, '$.change') IS NOT NULL)
  OR (NEW.type = 'community' AND json_extract(NEW.data, '$.community_id') IS NOT NULL)
BEGIN
  INSERT OR IGNORE INTO outbox (id, channel, user_id, kind, idempotency_key, payload, status, attempts, next_attempt_at, created_at)
  SELECT lower(hex(randomblob(8))), c.channel, NEW.user_id, 'notification', 'notification:' || NEW.id || ':' || c.channel,
         json_object('notification_id', NEW.id, 'type', NEW.type, 'title', NEW.title, 'message', NEW.message, 'data', json(NEW.data)),
         'pending', 0, NEW.created_at, NEW.created_at
  FROM (SELECT 'email' AS channel UNION ALL SELECT 'push') AS c;
END;
