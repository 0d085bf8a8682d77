-- Profile photos (issue 18): the R2 object key of the photo the user uploaded, e.g.
-- avatars/{user id}/{sha-256 prefix}.jpg. The key is content-addressed, so the URL built
-- from it (/avatars/{user id}/{version}, stored in avatar_url for every page that already
-- selects it) changes with the photo and may be cached for a long time.
ALTER TABLE `user_profiles` ADD `avatar_key` text;
