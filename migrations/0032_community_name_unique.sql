-- Issue 38, item 6: one community per name, however it is spaced or capitalised, so three
-- cards can no longer read "HSR Layout Sector 2 Residents" (confusing, and open to
-- impersonation). `name_key` is the name without spaces, tabs, line breaks or no-break
-- spaces, in lower case (communityNameKey in db/schema.ts); a unique index holds it.
-- Existing duplicates keep every row: the oldest keeps its name, each later one is renamed
-- "Name (2)", "Name (3)"... in order of creation. The window function is read in full before
-- the UPDATE writes, so the numbering is not disturbed by the renaming itself.
UPDATE `communities` SET `name` = `communities`.`name` || ' (' || `dup`.`n` || ')'
FROM (
  SELECT `id`, row_number() OVER (
    PARTITION BY lower(replace(replace(replace(replace(replace(`name`, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), ''))
    ORDER BY `created_at`, `id`
  ) AS `n`
  FROM `communities`
) AS `dup`
WHERE `dup`.`id` = `communities`.`id` AND `dup`.`n` > 1;
--> statement-breakpoint
ALTER TABLE `communities` ADD `name_key` text GENERATED ALWAYS AS (lower(replace(replace(replace(replace(replace("name", ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), ''))) VIRTUAL;
--> statement-breakpoint
CREATE UNIQUE INDEX `communities_name_key_unique` ON `communities` (`name_key`);
