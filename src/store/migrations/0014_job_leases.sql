-- Job leases (issue 21.4): which daemon runs cooling when several share one libSQL server.
CREATE TABLE `job_leases` (
	`job` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
