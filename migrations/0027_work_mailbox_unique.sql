-- Issue 34, finding 8: a+1@ and a+2@ of one mailbox verified two members of one community.
-- Memberships now store the mailbox (the address without its +tag); this index holds one
-- verified member per mailbox and community, also for rows stored before, as typed.
-- Of members who verified one mailbox before this, the first keeps the verification; the
-- others stay members, no longer verified (verify again with an address of their own).
UPDATE `community_members` SET `verified_email` = NULL, `verified_domain` = NULL, `verified_at` = NULL
WHERE `verified_email` IS NOT NULL AND EXISTS (
  SELECT 1 FROM `community_members` AS `first`
  WHERE `first`.`community_id` = `community_members`.`community_id` AND `first`.`verified_email` IS NOT NULL
    AND (CASE WHEN instr(substr(`first`.`verified_email`, 1, instr(`first`.`verified_email`, '@') - 1), '+') > 0 THEN substr(`first`.`verified_email`, 1, instr(`first`.`verified_email`, '+') - 1) || substr(`first`.`verified_email`, instr(`first`.`verified_email`, '@')) ELSE `first`.`verified_email` END)
      = (CASE WHEN instr(substr(`community_members`.`verified_email`, 1, instr(`community_members`.`verified_email`, '@') - 1), '+') > 0 THEN substr(`community_members`.`verified_email`, 1, instr(`community_members`.`verified_email`, '+') - 1) || substr(`community_members`.`verified_email`, instr(`community_members`.`verified_email`, '@')) ELSE `community_members`.`verified_email` END)
    AND (`first`.`verified_at` < `community_members`.`verified_at` OR (`first`.`verified_at` = `community_members`.`verified_at` AND `first`.`id` < `community_members`.`id`))
);--> statement-breakpoint
CREATE UNIQUE INDEX `community_members_verified_mailbox_unique` ON `community_members` (`community_id`,(CASE WHEN instr(substr("verified_email", 1, instr("verified_email", '@') - 1), '+') > 0 THEN substr("verified_email", 1, instr("verified_email", '+') - 1) || substr("verified_email", instr("verified_email", '@')) ELSE "verified_email" END)) WHERE "community_members"."verified_email" IS NOT NULL;
