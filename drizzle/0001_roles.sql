-- The four roles have fixed ids that the code relies on (ROLE in app/services/db/schema.ts).
INSERT INTO "roles" ("id", "name") VALUES
	(1, 'Admin'),
	(2, 'Student'),
	(3, 'Teacher'),
	(4, 'Advisor');
