-- Issue 14: rides get real places (docs/decisions/0015-places-and-distance-search.md). Each side of a
-- ride keeps its name (what riders read, the place-name search) and gains the place id, its point and
-- its search-grid cell. Existing rides used the 29 fixed places, mapped here to the same points the
-- generated list gives them (app/domain/places.ts); rows are only added to, nothing is lost.
ALTER TABLE `rides` ADD `from_place_id` text;--> statement-breakpoint
ALTER TABLE `rides` ADD `to_place_id` text;--> statement-breakpoint
ALTER TABLE `rides` ADD `from_lat` real;--> statement-breakpoint
ALTER TABLE `rides` ADD `from_lng` real;--> statement-breakpoint
ALTER TABLE `rides` ADD `to_lat` real;--> statement-breakpoint
ALTER TABLE `rides` ADD `to_lng` real;--> statement-breakpoint
ALTER TABLE `rides` ADD `from_cell` integer;--> statement-breakpoint
ALTER TABLE `rides` ADD `to_cell` integer;--> statement-breakpoint
CREATE INDEX `rides_from_cell_idx` ON `rides` (`from_cell`,`status`,`departs_at`);--> statement-breakpoint
WITH p(name, id, lat, lng, cell) AS (VALUES
  ('Manyata Tech Park', 'manyata-tech-park', 13.0474, 77.6207, 65212881),
  ('Electronic City Phase 1', 'electronic-city-phase-1', 12.8452, 77.6602, 64212883),
  ('Whitefield ITPL', 'whitefield-itpl', 12.9857, 77.7366, 64912886),
  ('Bagmane Tech Park', 'bagmane-tech-park', 12.9806, 77.6622, 64912883),
  ('RMZ Ecospace', 'rmz-ecospace', 12.9279, 77.6817, 64612884),
  ('Embassy Tech Village', 'embassy-tech-village', 12.9316, 77.6946, 64612884),
  ('Prestige Tech Park', 'prestige-tech-park', 12.9386, 77.7012, 64612885),
  ('Global Village Tech Park', 'global-village-tech-park', 12.917, 77.498, 64512874),
  ('HSR Layout', 'hsr-layout', 12.9116, 77.6474, 64512882),
  ('Koramangala', 'koramangala', 12.9352, 77.6245, 64612881),
  ('Indiranagar', 'indiranagar', 12.9784, 77.6408, 64812882),
  ('Jayanagar', 'jayanagar', 12.925, 77.5938, 64612879),
  ('JP Nagar', 'jp-nagar', 12.9063, 77.5857, 64512879),
  ('BTM Layout', 'btm-layout', 12.9166, 77.6101, 64512880),
  ('Marathahalli', 'marathahalli', 12.9569, 77.7011, 64712885),
  ('Hebbal', 'hebbal', 13.0358, 77.597, 65112879),
  ('Yelahanka', 'yelahanka', 13.1007, 77.5963, 65512879),
  ('Malleshwaram', 'malleshwaram', 13.0035, 77.5709, 65012878),
  ('MG Road', 'mg-road', 12.9756, 77.605, 64812880),
  ('Brigade Road', 'brigade-road', 12.9719, 77.607, 64812880),
  ('UB City', 'ub-city', 12.9716, 77.5963, 64812879),
  ('Cunningham Road', 'cunningham-road', 12.9877, 77.5936, 64912879),
  ('Residency Road', 'residency-road', 12.968, 77.603, 64812880),
  ('Richmond Town', 'richmond-town', 12.9605, 77.601, 64812880),
  ('Kempegowda International Airport', 'kempegowda-international-airport', 13.1986, 77.7066, 65912885),
  ('Majestic Bus Station', 'majestic-bus-station', 12.9767, 77.5713, 64812878),
  ('KSR Bengaluru City Junction', 'ksr-bengaluru-city-junction', 12.9781, 77.5695, 64812878),
  ('Yeshwanthpur Junction', 'yeshwanthpur-junction', 13.0237, 77.55, 65112877),
  ('Baiyappanahalli Metro Station', 'baiyappanahalli-metro-station', 12.9907, 77.6525, 64912882)
)
UPDATE `rides` SET `from_place_id` = p.id, `from_lat` = p.lat, `from_lng` = p.lng, `from_cell` = p.cell FROM p WHERE p.name = `rides`.`from_location`;--> statement-breakpoint
WITH p(name, id, lat, lng, cell) AS (VALUES
  ('Manyata Tech Park', 'manyata-tech-park', 13.0474, 77.6207, 65212881),
  ('Electronic City Phase 1', 'electronic-city-phase-1', 12.8452, 77.6602, 64212883),
  ('Whitefield ITPL', 'whitefield-itpl', 12.9857, 77.7366, 64912886),
  ('Bagmane Tech Park', 'bagmane-tech-park', 12.9806, 77.6622, 64912883),
  ('RMZ Ecospace', 'rmz-ecospace', 12.9279, 77.6817, 64612884),
  ('Embassy Tech Village', 'embassy-tech-village', 12.9316, 77.6946, 64612884),
  ('Prestige Tech Park', 'prestige-tech-park', 12.9386, 77.7012, 64612885),
  ('Global Village Tech Park', 'global-village-tech-park', 12.917, 77.498, 64512874),
  ('HSR Layout', 'hsr-layout', 12.9116, 77.6474, 64512882),
  ('Koramangala', 'koramangala', 12.9352, 77.6245, 64612881),
  ('Indiranagar', 'indiranagar', 12.9784, 77.6408, 64812882),
  ('Jayanagar', 'jayanagar', 12.925, 77.5938, 64612879),
  ('JP Nagar', 'jp-nagar', 12.9063, 77.5857, 64512879),
  ('BTM Layout', 'btm-layout', 12.9166, 77.6101, 64512880),
  ('Marathahalli', 'marathahalli', 12.9569, 77.7011, 64712885),
  ('Hebbal', 'hebbal', 13.0358, 77.597, 65112879),
  ('Yelahanka', 'yelahanka', 13.1007, 77.5963, 65512879),
  ('Malleshwaram', 'malleshwaram', 13.0035, 77.5709, 65012878),
  ('MG Road', 'mg-road', 12.9756, 77.605, 64812880),
  ('Brigade Road', 'brigade-road', 12.9719, 77.607, 64812880),
  ('UB City', 'ub-city', 12.9716, 77.5963, 64812879),
  ('Cunningham Road', 'cunningham-road', 12.9877, 77.5936, 64912879),
  ('Residency Road', 'residency-road', 12.968, 77.603, 64812880),
  ('Richmond Town', 'richmond-town', 12.9605, 77.601, 64812880),
  ('Kempegowda International Airport', 'kempegowda-international-airport', 13.1986, 77.7066, 65912885),
  ('Majestic Bus Station', 'majestic-bus-station', 12.9767, 77.5713, 64812878),
  ('KSR Bengaluru City Junction', 'ksr-bengaluru-city-junction', 12.9781, 77.5695, 64812878),
  ('Yeshwanthpur Junction', 'yeshwanthpur-junction', 13.0237, 77.55, 65112877),
  ('Baiyappanahalli Metro Station', 'baiyappanahalli-metro-station', 12.9907, 77.6525, 64912882)
)
UPDATE `rides` SET `to_place_id` = p.id, `to_lat` = p.lat, `to_lng` = p.lng, `to_cell` = p.cell FROM p WHERE p.name = `rides`.`to_location`;
