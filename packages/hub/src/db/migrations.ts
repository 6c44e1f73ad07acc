import type { Database } from "./types.js";

export interface Migration {
	version: number;
	name: string;
	sql: string;
}

/**
 * The schema, as numbered migrations. Applied in order at start, each recorded in `modelhub_migrations`;
 * never edit one that has shipped: add the next number instead.
 *
 * Repository ids use the "C" collation so that ordering (and so keyset pagination) is byte order, the same on
 * every server whatever its locale. Timestamps are kept to the millisecond, the precision of the public
 * hub's JSON and of the pagination cursor.
 */
export const MIGRATIONS: readonly Migration[] = [
	{
		version: 1,
		name: "models and provider mappings",
		sql: `
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE models (
	id text COLLATE "C" PRIMARY KEY,
	object_id text,
	author text COLLATE "C" NOT NULL,
	name text COLLATE "C" NOT NULL,
	pipeline_tag text,
	library_name text,
	tags text[] NOT NULL DEFAULT '{}',
	config jsonb,
	card_data jsonb,
	widget_data jsonb,
	transformers_info jsonb,
	safetensors jsonb,
	gguf jsonb,
	mask_token text,
	downloads bigint NOT NULL DEFAULT 0 CHECK (downloads >= 0),
	likes bigint NOT NULL DEFAULT 0 CHECK (likes >= 0),
	last_modified timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
	private boolean NOT NULL DEFAULT false,
	created_at timestamptz NOT NULL DEFAULT now(),
	updated_at timestamptz NOT NULL DEFAULT now(),
	CONSTRAINT models_id_is_author_slash_name CHECK (id = author || '/' || name)
);

-- Ids are unique regardless of case, as on the public hub; lookups are case-insensitive.
CREATE UNIQUE INDEX models_id_lower ON models (lower(id));
CREATE INDEX models_author_lower ON models (lower(author));
CREATE INDEX models_pipeline_tag ON models (pipeline_tag, downloads DESC);
CREATE INDEX models_library_name ON models (library_name, downloads DESC);
CREATE INDEX models_tags ON models USING gin (tags);
CREATE INDEX models_id_trigram ON models USING gin (lower(id) gin_trgm_ops);
-- Keyset pagination: (sort value, id), scanned forwards or backwards.
CREATE INDEX models_sort_downloads ON models (downloads, id);
CREATE INDEX models_sort_likes ON models (likes, id);
CREATE INDEX models_sort_last_modified ON models (last_modified, id);

CREATE TABLE provider_mappings (
	model_id text COLLATE "C" NOT NULL REFERENCES models (id) ON DELETE CASCADE ON UPDATE CASCADE,
	provider text NOT NULL,
	provider_id text NOT NULL,
	task text NOT NULL,
	status text NOT NULL CHECK (status IN ('live', 'staging')),
	adapter text,
	adapter_weights_path text,
	-- The order users prefer providers in (the order of the public hub's object), 0 first.
	position integer NOT NULL,
	PRIMARY KEY (model_id, provider)
);
CREATE INDEX provider_mappings_provider ON provider_mappings (provider, provider_id);

-- Small facts about this database, e.g. when the seed was loaded.
CREATE TABLE hub_meta (
	key text PRIMARY KEY,
	value text NOT NULL
);
`,
	},
	{
		version: 2,
		name: "revisions, files and the listing filters of the hub API",
		sql: `
-- Ids without a namespace (legacy canonical models such as "gpt2") have no author.
ALTER TABLE models DROP CONSTRAINT models_id_is_author_slash_name;
ALTER TABLE models ALTER COLUMN author DROP NOT NULL;
ALTER TABLE models ADD CONSTRAINT models_id_shape CHECK (
	(author IS NULL AND id = name AND strpos(id, '/') = 0) OR (author IS NOT NULL AND id = author || '/' || name)
);

-- createdAt is part of the public JSON and a sort key: millisecond precision, like lastModified.
UPDATE models SET created_at = date_trunc('milliseconds', least(created_at, last_modified));
ALTER TABLE models ALTER COLUMN created_at SET DEFAULT date_trunc('milliseconds', now());
ALTER TABLE models ADD COLUMN trending_score bigint NOT NULL DEFAULT 0;

-- What \`filter=\` matches: the tags, the pipeline tag and the library, all in one array (AND = containment).
ALTER TABLE models ADD COLUMN filter_tags text[]
	GENERATED ALWAYS AS (tags || array_remove(ARRAY[pipeline_tag, library_name], NULL)) STORED;
DROP INDEX models_tags;
CREATE INDEX models_filter_tags ON models USING gin (filter_tags);

-- Parameter count for \`num_parameters=\`: the safetensors total, else the GGUF total.
ALTER TABLE models ADD COLUMN num_parameters bigint GENERATED ALWAYS AS (
	CASE
		WHEN jsonb_typeof(safetensors -> 'total') = 'number' THEN trunc((safetensors ->> 'total')::numeric)::bigint
		WHEN jsonb_typeof(gguf -> 'total') = 'number' THEN trunc((gguf ->> 'total')::numeric)::bigint
	END
) STORED;

CREATE INDEX models_sort_created_at ON models (created_at, id);
CREATE INDEX models_sort_trending_score ON models (trending_score, id);

-- File bytes live in the blob store (disk or S3), addressed by SHA-256; the database only knows them.
CREATE TABLE blobs (
	sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
	size bigint NOT NULL CHECK (size >= 0),
	-- git's object id of the bytes (NULL for blobs only ever stored through LFS)
	git_oid text CHECK (git_oid ~ '^[0-9a-f]{40}$'),
	created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE commits (
	model_id text COLLATE "C" NOT NULL REFERENCES models (id) ON DELETE CASCADE ON UPDATE CASCADE,
	id text NOT NULL CHECK (id ~ '^[0-9a-f]{40}$'),
	parent_id text,
	tree_id text NOT NULL,
	title text NOT NULL,
	message text NOT NULL DEFAULT '',
	author text NOT NULL,
	created_at timestamptz NOT NULL,
	PRIMARY KEY (model_id, id)
);

-- Branches and tags; every model has the branch "main".
CREATE TABLE refs (
	model_id text COLLATE "C" NOT NULL,
	kind text NOT NULL CHECK (kind IN ('branch', 'tag')),
	name text COLLATE "C" NOT NULL,
	commit_id text NOT NULL,
	PRIMARY KEY (model_id, kind, name),
	FOREIGN KEY (model_id, commit_id) REFERENCES commits (model_id, id) ON DELETE CASCADE ON UPDATE CASCADE
);

-- The full file list of every commit (a snapshot), so that any revision is one indexed lookup away.
CREATE TABLE commit_files (
	model_id text COLLATE "C" NOT NULL,
	commit_id text NOT NULL,
	path text COLLATE "C" NOT NULL,
	sha256 text NOT NULL REFERENCES blobs (sha256),
	lfs boolean NOT NULL,
	PRIMARY KEY (model_id, commit_id, path),
	FOREIGN KEY (model_id, commit_id) REFERENCES commits (model_id, id) ON DELETE CASCADE ON UPDATE CASCADE
);

-- Git tree ids of the folders of each commit (the root's is commits.tree_id).
CREATE TABLE commit_folders (
	model_id text COLLATE "C" NOT NULL,
	commit_id text NOT NULL,
	path text COLLATE "C" NOT NULL,
	tree_id text NOT NULL,
	PRIMARY KEY (model_id, commit_id, path),
	FOREIGN KEY (model_id, commit_id) REFERENCES commits (model_id, id) ON DELETE CASCADE ON UPDATE CASCADE
);
`,
	},
	{
		version: 3,
		name: "accounts, access tokens, uploads and the audit log",
		sql: `
-- Users and organisations share one namespace (a model's author is one of them, or no one).
CREATE TABLE accounts (
	name text COLLATE "C" PRIMARY KEY,
	kind text NOT NULL CHECK (kind IN ('user', 'org')),
	object_id text NOT NULL UNIQUE,
	fullname text NOT NULL,
	created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);
CREATE UNIQUE INDEX accounts_name_lower ON accounts (lower(name));

CREATE TABLE memberships (
	org text COLLATE "C" NOT NULL REFERENCES accounts (name) ON DELETE CASCADE ON UPDATE CASCADE,
	member text COLLATE "C" NOT NULL REFERENCES accounts (name) ON DELETE CASCADE ON UPDATE CASCADE,
	role text NOT NULL CHECK (role IN ('read', 'write', 'admin')),
	PRIMARY KEY (org, member)
);
CREATE INDEX memberships_member ON memberships (member);

-- Only the SHA-256 of a token is kept: the token itself is shown once, when it is issued.
CREATE TABLE access_tokens (
	id text PRIMARY KEY,
	account text COLLATE "C" NOT NULL REFERENCES accounts (name) ON DELETE CASCADE ON UPDATE CASCADE,
	display_name text NOT NULL,
	role text NOT NULL CHECK (role IN ('read', 'write')),
	token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
	created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
	last_used_at timestamptz,
	revoked_at timestamptz
);
CREATE INDEX access_tokens_account ON access_tokens (account, created_at);

-- Who changed what: every write through the API or the CLI.
CREATE TABLE audit_log (
	id bigserial PRIMARY KEY,
	at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
	actor text NOT NULL,
	token_id text,
	action text NOT NULL,
	repo text COLLATE "C",
	ip text,
	details jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_repo ON audit_log (repo, id);
CREATE INDEX audit_log_actor ON audit_log (actor, id);

-- Large files uploaded to a repository (LFS or Xet) that a commit of it may refer to by SHA-256.
CREATE TABLE upload_objects (
	model_id text COLLATE "C" NOT NULL REFERENCES models (id) ON DELETE CASCADE ON UPDATE CASCADE,
	sha256 text NOT NULL REFERENCES blobs (sha256),
	uploaded_by text NOT NULL,
	created_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (model_id, sha256)
);
-- Which repositories already hold an object (commits by SHA-256 are checked against it).
CREATE INDEX commit_files_sha256 ON commit_files (sha256, model_id);

ALTER TABLE refs ADD COLUMN message text;

-- Xet: short-lived CAS tokens, issued against an access token (revoking it revokes them).
CREATE TABLE xet_tokens (
	token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
	access_token_id text REFERENCES access_tokens (id) ON DELETE CASCADE,
	account text NOT NULL,
	model_id text COLLATE "C" NOT NULL REFERENCES models (id) ON DELETE CASCADE ON UPDATE CASCADE,
	expires_at timestamptz NOT NULL
);
CREATE INDEX xet_tokens_expires ON xet_tokens (expires_at);

-- Xet xorbs, each kept as a blob and owned by the account that uploaded it: a file is only ever
-- rebuilt from its uploader's own xorbs.
CREATE TABLE xet_xorbs (
	account text NOT NULL,
	hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
	blob_sha256 text NOT NULL CHECK (blob_sha256 ~ '^[0-9a-f]{64}$'),
	size bigint NOT NULL,
	num_chunks integer NOT NULL,
	-- little-endian u32 byte offsets: where each chunk (header included) starts, then the end of the last
	chunk_offsets bytea NOT NULL,
	-- little-endian u32 uncompressed size of each chunk
	chunk_sizes bytea NOT NULL,
	created_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (account, hash)
);
`,
	},
	{
		version: 4,
		name: "repositories of every type",
		sql: `
-- A repository is (type, id): models today, datasets and spaces later, in one table; every row that
-- hangs off a repository names its type too. Existing rows are models. Columns are added with a constant
-- default (no table rewrite) that is dropped at once, so every write names the type. Only the keys and
-- the B-tree indexes that lead with the type are built again.

-- Keys whose shape changes, children first.
ALTER TABLE provider_mappings DROP CONSTRAINT provider_mappings_model_id_fkey;
ALTER TABLE commits DROP CONSTRAINT commits_model_id_fkey;
ALTER TABLE refs DROP CONSTRAINT refs_model_id_commit_id_fkey;
ALTER TABLE commit_files DROP CONSTRAINT commit_files_model_id_commit_id_fkey;
ALTER TABLE commit_folders DROP CONSTRAINT commit_folders_model_id_commit_id_fkey;
ALTER TABLE upload_objects DROP CONSTRAINT upload_objects_model_id_fkey;
ALTER TABLE xet_tokens DROP CONSTRAINT xet_tokens_model_id_fkey;
ALTER TABLE refs DROP CONSTRAINT refs_pkey;
ALTER TABLE commit_files DROP CONSTRAINT commit_files_pkey;
ALTER TABLE commit_folders DROP CONSTRAINT commit_folders_pkey;
ALTER TABLE commits DROP CONSTRAINT commits_pkey;
ALTER TABLE provider_mappings DROP CONSTRAINT provider_mappings_pkey;
ALTER TABLE upload_objects DROP CONSTRAINT upload_objects_pkey;
ALTER TABLE models DROP CONSTRAINT models_pkey;

ALTER TABLE models RENAME TO repos;
-- The public JSON still calls the namespace "author".
ALTER TABLE repos RENAME COLUMN author TO namespace;
ALTER TABLE repos RENAME CONSTRAINT models_id_shape TO repos_id_shape;
ALTER TABLE repos RENAME CONSTRAINT models_downloads_check TO repos_downloads_check;
ALTER TABLE repos RENAME CONSTRAINT models_likes_check TO repos_likes_check;
ALTER TABLE repos ADD COLUMN type text NOT NULL DEFAULT 'model'
	CONSTRAINT repos_type CHECK (type IN ('model', 'dataset', 'space'));
ALTER TABLE repos ALTER COLUMN type DROP DEFAULT;
ALTER TABLE repos ADD CONSTRAINT repos_pkey PRIMARY KEY (type, id);

-- Ids are unique per type regardless of case; listings filter and sort within one type.
DROP INDEX models_id_lower;
CREATE UNIQUE INDEX repos_id_lower ON repos (type, lower(id));
DROP INDEX models_author_lower;
CREATE INDEX repos_namespace_lower ON repos (type, lower(namespace));
DROP INDEX models_pipeline_tag;
CREATE INDEX repos_pipeline_tag ON repos (type, pipeline_tag, downloads DESC);
DROP INDEX models_library_name;
CREATE INDEX repos_library_name ON repos (type, library_name, downloads DESC);
DROP INDEX models_sort_downloads;
CREATE INDEX repos_sort_downloads ON repos (type, downloads, id);
DROP INDEX models_sort_likes;
CREATE INDEX repos_sort_likes ON repos (type, likes, id);
DROP INDEX models_sort_last_modified;
CREATE INDEX repos_sort_last_modified ON repos (type, last_modified, id);
DROP INDEX models_sort_created_at;
CREATE INDEX repos_sort_created_at ON repos (type, created_at, id);
DROP INDEX models_sort_trending_score;
CREATE INDEX repos_sort_trending_score ON repos (type, trending_score, id);
-- GIN indexes cannot lead with a text column (without btree_gin): the type is checked on their rows.
ALTER INDEX models_filter_tags RENAME TO repos_filter_tags;
ALTER INDEX models_id_trigram RENAME TO repos_id_trigram;

ALTER TABLE provider_mappings RENAME COLUMN model_id TO repo_id;
ALTER TABLE provider_mappings ADD COLUMN repo_type text NOT NULL DEFAULT 'model';
ALTER TABLE provider_mappings ALTER COLUMN repo_type DROP DEFAULT;
ALTER TABLE provider_mappings ADD PRIMARY KEY (repo_type, repo_id, provider);
ALTER TABLE provider_mappings ADD FOREIGN KEY (repo_type, repo_id) REFERENCES repos (type, id)
	ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE commits RENAME COLUMN model_id TO repo_id;
ALTER TABLE commits ADD COLUMN repo_type text NOT NULL DEFAULT 'model';
ALTER TABLE commits ALTER COLUMN repo_type DROP DEFAULT;
ALTER TABLE commits ADD PRIMARY KEY (repo_type, repo_id, id);
ALTER TABLE commits ADD FOREIGN KEY (repo_type, repo_id) REFERENCES repos (type, id)
	ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE refs RENAME COLUMN model_id TO repo_id;
ALTER TABLE refs ADD COLUMN repo_type text NOT NULL DEFAULT 'model';
ALTER TABLE refs ALTER COLUMN repo_type DROP DEFAULT;
ALTER TABLE refs ADD PRIMARY KEY (repo_type, repo_id, kind, name);
ALTER TABLE refs ADD FOREIGN KEY (repo_type, repo_id, commit_id) REFERENCES commits (repo_type, repo_id, id)
	ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE commit_files RENAME COLUMN model_id TO repo_id;
ALTER TABLE commit_files ADD COLUMN repo_type text NOT NULL DEFAULT 'model';
ALTER TABLE commit_files ALTER COLUMN repo_type DROP DEFAULT;
ALTER TABLE commit_files ADD PRIMARY KEY (repo_type, repo_id, commit_id, path);
ALTER TABLE commit_files ADD FOREIGN KEY (repo_type, repo_id, commit_id) REFERENCES commits (repo_type, repo_id, id)
	ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE commit_folders RENAME COLUMN model_id TO repo_id;
ALTER TABLE commit_folders ADD COLUMN repo_type text NOT NULL DEFAULT 'model';
ALTER TABLE commit_folders ALTER COLUMN repo_type DROP DEFAULT;
ALTER TABLE commit_folders ADD PRIMARY KEY (repo_type, repo_id, commit_id, path);
ALTER TABLE commit_folders ADD FOREIGN KEY (repo_type, repo_id, commit_id) REFERENCES commits (repo_type, repo_id, id)
	ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE upload_objects RENAME COLUMN model_id TO repo_id;
ALTER TABLE upload_objects ADD COLUMN repo_type text NOT NULL DEFAULT 'model';
ALTER TABLE upload_objects ALTER COLUMN repo_type DROP DEFAULT;
ALTER TABLE upload_objects ADD PRIMARY KEY (repo_type, repo_id, sha256);
ALTER TABLE upload_objects ADD FOREIGN KEY (repo_type, repo_id) REFERENCES repos (type, id)
	ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE xet_tokens RENAME COLUMN model_id TO repo_id;
ALTER TABLE xet_tokens ADD COLUMN repo_type text NOT NULL DEFAULT 'model';
ALTER TABLE xet_tokens ALTER COLUMN repo_type DROP DEFAULT;
ALTER TABLE xet_tokens ADD FOREIGN KEY (repo_type, repo_id) REFERENCES repos (type, id)
	ON DELETE CASCADE ON UPDATE CASCADE;

-- Which repositories hold an object: its commit_files_sha256 index (sha256, repo_id) keeps serving, the
-- type checked on its few rows. The audit log names the type of the repository an entry is about.
ALTER TABLE audit_log ADD COLUMN repo_type text CHECK (repo_type IN ('model', 'dataset', 'space'));
UPDATE audit_log SET repo_type = 'model' WHERE repo IS NOT NULL;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_repo_type CHECK ((repo IS NULL) = (repo_type IS NULL));
`,
	},
	{
		version: 5,
		name: "download counts",
		sql: `
-- Downloads this hub counted (see src/downloads/): per repository and UTC day, added to by every hub
-- process's flush. repos.downloads stays the count imported with the model (the public hub's 30-day
-- figure at import time, 0 for uploads); the counted ones are rolled up next to it, so that model info,
-- listings and the downloads sort read one row: shown downloads = imported + counted in the last 30 days,
-- downloadsAllTime = imported + counted ever. Constant defaults: no table rewrite.
ALTER TABLE repos ADD COLUMN downloads_recent bigint NOT NULL DEFAULT 0 CHECK (downloads_recent >= 0);
ALTER TABLE repos ADD COLUMN downloads_counted bigint NOT NULL DEFAULT 0 CHECK (downloads_counted >= 0);

CREATE TABLE download_days (
	repo_type text NOT NULL,
	repo_id text COLLATE "C" NOT NULL,
	day date NOT NULL,
	count bigint NOT NULL CHECK (count > 0),
	PRIMARY KEY (repo_type, repo_id, day),
	FOREIGN KEY (repo_type, repo_id) REFERENCES repos (type, id) ON DELETE CASCADE ON UPDATE CASCADE
);
-- The daily roll finds the repositories whose oldest day leaves the 30-day window.
CREATE INDEX download_days_day ON download_days (day);

-- The downloads sort (and the task and library listings sorted by downloads) follow the shown count.
DROP INDEX repos_sort_downloads;
CREATE INDEX repos_sort_downloads ON repos (type, (downloads + downloads_recent), id);
DROP INDEX repos_pipeline_tag;
CREATE INDEX repos_pipeline_tag ON repos (type, pipeline_tag, (downloads + downloads_recent) DESC);
DROP INDEX repos_library_name;
CREATE INDEX repos_library_name ON repos (type, library_name, (downloads + downloads_recent) DESC);
`,
	},
	{
		version: 6,
		name: "repository analysis: derived metadata kept apart from the card's and the imported record's",
		sql: `
-- What analysis derived from the files of main at analysed_commit, and what a model record brought
-- (import, seed, the admin's PUT). The columns the API and the listings read (pipeline_tag, library_name,
-- tags, config, …, and so filter_tags and num_parameters) hold the effective value, card ?? derived ??
-- imported, written in one place (src/analysis/store.ts).
ALTER TABLE repos ADD COLUMN derived jsonb;
ALTER TABLE repos ADD COLUMN imported jsonb;
ALTER TABLE repos ADD COLUMN analysed_commit text;
-- Existing repositories keep the metadata they show: it is recorded as imported, and their main commit
-- as analysed (the next commit to main analyses them).
UPDATE repos m SET imported = jsonb_build_object('pipeline_tag', m.pipeline_tag, 'library_name', m.library_name,
		'tags', to_jsonb(m.tags), 'config', m.config, 'widget_data', m.widget_data,
		'transformers_info', m.transformers_info, 'safetensors', m.safetensors, 'gguf', m.gguf,
		'mask_token', m.mask_token),
	analysed_commit = (SELECT r.commit_id FROM refs r WHERE r.repo_type = m.type AND r.repo_id = m.id
		AND r.kind = 'branch' AND r.name = 'main');
`,
	},
	{
		version: 7,
		name: "the downloads sort index carries the counts it sorts by",
		sql: `
-- A search walks a sort index and reads only the ids (index-only scans); the downloads index is on the
-- sum (downloads + downloads_recent), which PostgreSQL reads from an index only when the summed columns
-- are in it too (its planner looks for the columns, not the expression).
DROP INDEX repos_sort_downloads;
CREATE INDEX repos_sort_downloads ON repos (type, (downloads + downloads_recent), id)
	INCLUDE (downloads, downloads_recent);
`,
	},
	{
		version: 8,
		name: "storage quotas and the garbage collector",
		sql: `
-- The admin's per-account storage quota in bytes: NULL takes the configured default
-- (MODELHUB_QUOTA_USER_BYTES / MODELHUB_QUOTA_ORG_BYTES), -1 is unlimited.
ALTER TABLE accounts ADD COLUMN quota_bytes bigint CHECK (quota_bytes IS NULL OR quota_bytes >= -1);

-- When a blob was last handed to a writer (stored, or found already stored): the collector never takes
-- a blob touched within its grace period, since a commit may be about to refer to it (src/gc/). now()
-- is stable, so existing rows get the migration's time without a table rewrite.
ALTER TABLE blobs ADD COLUMN touched_at timestamptz NOT NULL DEFAULT now();

-- "Is this blob referenced?" looks a blob up in each table that refers to one (src/blobs/references.ts).
CREATE INDEX upload_objects_sha256 ON upload_objects (sha256);
CREATE INDEX xet_xorbs_blob ON xet_xorbs (blob_sha256);
-- Creations per account in the last minute (the repository creation rate limit) read the audit log.
CREATE INDEX audit_log_actor_action ON audit_log (actor, action, at);
`,
	},
	{
		version: 9,
		name: "trees shared between commits instead of every commit's full file list",
		sql: `
-- Trees as git stores them (src/repos/trees.ts): one row per distinct folder content, by its git tree
-- id, shared by every commit and repository that has it; commits.tree_id names the root. A commit
-- writes only the trees on the paths it changed. Entries are packed in name byte order:
--   kind (0 file, 1 LFS file, 2 folder) · int4 name length · UTF-8 name ·
--   folder: tree id (20 bytes) | file: git blob id (20) · SHA-256 (32) · int8 size | LFS: SHA-256 · size
CREATE TABLE trees (
	oid text PRIMARY KEY CHECK (oid ~ '^[0-9a-f]{40}$'),
	entries bytea NOT NULL
);
-- A tree of many entries is stored in chunks (runs of entries, by the SHA-1 of their bytes, shared like
-- trees): its trees row is byte 3 then the chunks' ids, so a one-file change rewrites one chunk.
CREATE TABLE tree_chunks (
	id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{40}$'),
	entries bytea NOT NULL
);

-- Which repositories hold which blobs (every blob any of their commits has): upload checks, the
-- storage a repository uses, and whether a blob is referenced at all read it.
CREATE TABLE repo_blobs (
	repo_type text NOT NULL,
	repo_id text COLLATE "C" NOT NULL,
	sha256 text NOT NULL REFERENCES blobs (sha256),
	PRIMARY KEY (repo_type, repo_id, sha256),
	FOREIGN KEY (repo_type, repo_id) REFERENCES repos (type, id) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX repo_blobs_sha256 ON repo_blobs (sha256);

INSERT INTO repo_blobs (repo_type, repo_id, sha256) SELECT DISTINCT repo_type, repo_id, sha256 FROM commit_files;

-- Each distinct tree once, from one commit and folder that has it ("" is a commit's root).
WITH sources AS (
	SELECT DISTINCT ON (tree_id) repo_type, repo_id, commit_id, path, tree_id FROM (
		SELECT repo_type, repo_id, id AS commit_id, ''::text AS path, tree_id FROM commits
		UNION ALL
		SELECT repo_type, repo_id, commit_id, path, tree_id FROM commit_folders
	) every_tree ORDER BY tree_id
), children AS (
	SELECT repo_type, repo_id, commit_id, path, sha256, lfs, NULL::text AS tree_id FROM commit_files
	UNION ALL
	SELECT repo_type, repo_id, commit_id, path, NULL, NULL, tree_id FROM commit_folders
), named AS (
	SELECT c.*, regexp_replace(c.path, '^.*/', '') AS name,
		CASE WHEN strpos(c.path, '/') = 0 THEN '' ELSE regexp_replace(c.path, '/[^/]*$', '') END AS parent
	FROM children c
), entries AS (
	SELECT s.tree_id AS owner, n.name,
		CASE WHEN n.tree_id IS NOT NULL THEN '\\x02'::bytea WHEN n.lfs THEN '\\x01'::bytea ELSE '\\x00'::bytea END
		|| int4send(octet_length(convert_to(n.name, 'UTF8'))) || convert_to(n.name, 'UTF8')
		|| CASE
			WHEN n.tree_id IS NOT NULL THEN decode(n.tree_id, 'hex')
			WHEN n.lfs THEN decode(n.sha256, 'hex') || int8send(b.size)
			ELSE decode(b.git_oid, 'hex') || decode(n.sha256, 'hex') || int8send(b.size)
		END AS entry
	FROM sources s
	JOIN named n ON n.repo_type = s.repo_type AND n.repo_id = s.repo_id AND n.commit_id = s.commit_id
		AND n.parent = s.path
	LEFT JOIN blobs b ON b.sha256 = n.sha256
)
INSERT INTO trees (oid, entries)
SELECT s.tree_id, COALESCE(string_agg(e.entry, ''::bytea ORDER BY e.name COLLATE "C"), ''::bytea)
FROM sources s LEFT JOIN entries e ON e.owner = s.tree_id
GROUP BY s.tree_id;

DROP TABLE commit_files;
DROP TABLE commit_folders;
`,
	},
	{
		version: 10,
		name: "self-service accounts: passwords, browser sessions, invites, disabled accounts",
		sql: `
ALTER TABLE accounts ADD COLUMN password_hash text;
ALTER TABLE accounts ADD COLUMN email text;
ALTER TABLE accounts ADD COLUMN disabled_at timestamptz;

-- Browser sessions: the secret is in an HttpOnly cookie, its SHA-256 here.
CREATE TABLE sessions (
	id text PRIMARY KEY,
	account text COLLATE "C" NOT NULL REFERENCES accounts (name) ON DELETE CASCADE ON UPDATE CASCADE,
	secret_hash text NOT NULL UNIQUE CHECK (secret_hash ~ '^[0-9a-f]{64}$'),
	created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
	last_seen_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);
CREATE INDEX sessions_account ON sessions (account);

-- Single-use invite links (MODELHUB_SIGNUP=invite).
CREATE TABLE invites (
	id text PRIMARY KEY,
	code_hash text NOT NULL UNIQUE CHECK (code_hash ~ '^[0-9a-f]{64}$'),
	created_by text NOT NULL,
	created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
	expires_at timestamptz NOT NULL,
	used_by text,
	used_at timestamptz
);
`,
	},
	{
		version: 11,
		name: "analysis's bookkeeping apart from the repository rows; the downloads index carries the filter tags",
		sql: `
-- What analysis derived, what a model record brought and the commit last analysed (migration 6) are read
-- only when metadata is recomputed, yet made every repository row ~320 bytes wider (a third of it at a
-- million models), and an import wrote each new row twice (inserted, then marked analysed). They move to
-- their own table, so the rows every lookup and listing reads are narrow and written once (issue 21).
-- Dropping the columns leaves existing rows as wide until they are rewritten: VACUUM FULL repos, at a
-- quiet time, gives the space back (packages/hub/README.md, Upgrading).
CREATE TABLE repo_analysis (
	repo_type text NOT NULL,
	repo_id text COLLATE "C" NOT NULL,
	imported jsonb,
	derived jsonb,
	analysed_commit text,
	PRIMARY KEY (repo_type, repo_id),
	FOREIGN KEY (repo_type, repo_id) REFERENCES repos (type, id) ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO repo_analysis (repo_type, repo_id, imported, derived, analysed_commit)
SELECT type, id, imported, derived, analysed_commit FROM repos
WHERE imported IS NOT NULL OR derived IS NOT NULL OR analysed_commit IS NOT NULL;
ALTER TABLE repos DROP COLUMN imported, DROP COLUMN derived, DROP COLUMN analysed_commit;

-- \`filter=\` walks the downloads index (the default sort) and tests each walked entry's filter tags: kept
-- in the index, the walk reads no row but those of the entries that match (an index-only scan), as
-- search does since migration 7.
DROP INDEX repos_sort_downloads;
CREATE INDEX repos_sort_downloads ON repos (type, (downloads + downloads_recent), id)
	INCLUDE (downloads, downloads_recent, filter_tags);
`,
	},
	{
		version: 12,
		name: "Xet tokens of the admin token name its fingerprint",
		sql: `
-- A Xet token issued under the admin token (access_token_id NULL) keeps a fingerprint of that admin token
-- (an HMAC under the upload signing key, src/uploads/signing.ts); each use compares it with the admin
-- token's of the moment, so changing MODELHUB_ADMIN_TOKEN ends them. Older rows have none: refused.
ALTER TABLE xet_tokens ADD COLUMN issuer text;
`,
	},
	{
		version: 13,
		name: "the tree collector marks reachable trees in the database, not in memory",
		sql: `
-- The collector's marks (src/gc/trees.ts): each run (its id starts with its start time) records here the
-- trees and chunks it found reachable, a page at a time, so that its memory stays bounded however many
-- trees are stored. Scratch rows, deleted when the run ends (a crashed run's by a later one): unlogged.
CREATE UNLOGGED TABLE gc_tree_marks (
	run text NOT NULL,
	chunk boolean NOT NULL,
	id text NOT NULL,
	expanded boolean NOT NULL DEFAULT false,
	PRIMARY KEY (run, chunk, id)
);
-- The marks still to follow, paged by the run.
CREATE INDEX gc_tree_marks_pending ON gc_tree_marks (run) WHERE NOT expanded;
`,
	},
	{
		version: 14,
		name: "accounts linked to an OpenID Connect provider's subjects",
		sql: `
-- Single sign-on (MODELHUB_OIDC_ISSUER): an account is found by the issuer and the subject of the ID
-- token, the pair OpenID Connect Core 1.0 (section 5.7) names as the only stable identifier of a person;
-- never by e-mail or name, which the provider's users may change or reuse.
CREATE TABLE account_identities (
	issuer text NOT NULL CHECK (length(issuer) <= 2048),
	subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
	account text COLLATE "C" NOT NULL REFERENCES accounts (name) ON DELETE CASCADE ON UPDATE CASCADE,
	created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
	last_login_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
	PRIMARY KEY (issuer, subject)
);
CREATE INDEX account_identities_account ON account_identities (account);
`,
	},
	{
		version: 15,
		name: "repositories whose analysis is behind their main branch are listed as they fall behind",
		sql: `
-- A hub at start catches up on the repositories whose main moved past their last analysis. Finding them
-- compared every main branch with its analysis: at a million models, a read of every row of refs and
-- repo_analysis (~17 s) at each start, though almost none are behind (issue 21). Instead each repository
-- whose main moves is listed here, with the commit it moved to, by the triggers below (every write of refs
-- passes them, whichever code made it); an analysis recorded at that commit removes its row
-- (src/analysis/store.ts). A row may outlive its reason (a newer analysis of an older main): the catch-up
-- checks each row against refs and repo_analysis, so the list only has to hold every repository behind.
CREATE TABLE analysis_due (
	repo_type text NOT NULL,
	repo_id text COLLATE "C" NOT NULL,
	-- The main commit when the row was written: only an analysis of this commit removes the row.
	commit_id text NOT NULL,
	PRIMARY KEY (repo_type, repo_id),
	FOREIGN KEY (repo_type, repo_id) REFERENCES repos (type, id) ON DELETE CASCADE ON UPDATE CASCADE
);

-- A bulk import inserts a hundred thousand main branches in one statement: one statement-level insert
-- from the transition table, not a function call per row.
CREATE FUNCTION modelhub_main_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO analysis_due (repo_type, repo_id, commit_id)
	SELECT repo_type, repo_id, commit_id FROM inserted_refs WHERE kind = 'branch' AND name = 'main'
	ON CONFLICT (repo_type, repo_id) DO UPDATE SET commit_id = EXCLUDED.commit_id;
	RETURN NULL;
END $$;
CREATE TRIGGER refs_main_inserted AFTER INSERT ON refs REFERENCING NEW TABLE AS inserted_refs
	FOR EACH STATEMENT EXECUTE FUNCTION modelhub_main_inserted();

-- A commit to main updates one row. Only a change of commit counts: a repository's rename cascades into
-- refs (and into this table) without moving main.
CREATE FUNCTION modelhub_main_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO analysis_due (repo_type, repo_id, commit_id) VALUES (NEW.repo_type, NEW.repo_id, NEW.commit_id)
	ON CONFLICT (repo_type, repo_id) DO UPDATE SET commit_id = EXCLUDED.commit_id;
	RETURN NULL;
END $$;
CREATE TRIGGER refs_main_moved AFTER UPDATE ON refs FOR EACH ROW
	WHEN (NEW.kind = 'branch' AND NEW.name = 'main' AND OLD.commit_id IS DISTINCT FROM NEW.commit_id)
	EXECUTE FUNCTION modelhub_main_moved();

-- The repositories behind today: the last full comparison, run once.
INSERT INTO analysis_due (repo_type, repo_id, commit_id)
SELECT r.repo_type, r.repo_id, r.commit_id FROM refs r
LEFT JOIN repo_analysis a ON a.repo_type = r.repo_type AND a.repo_id = r.repo_id
WHERE r.kind = 'branch' AND r.name = 'main' AND a.analysed_commit IS DISTINCT FROM r.commit_id;
`,
	},
	{
		version: 16,
		name: "gated repositories and their access requests; likes",
		sql: `
-- Gated repositories (issue 24): 'auto' accepts every access request at once, 'manual' waits for the
-- owner; NULL is not gated (huggingface_hub's update_repo_settings(gated="auto"|"manual"|False)).
ALTER TABLE repos ADD COLUMN gated text CONSTRAINT repos_gated CHECK (gated IN ('auto', 'manual'));

-- One request per user and repository; access is granted to users only (never to organisations).
CREATE TABLE access_requests (
	repo_type text NOT NULL,
	repo_id text COLLATE "C" NOT NULL,
	account text COLLATE "C" NOT NULL REFERENCES accounts (name) ON DELETE CASCADE ON UPDATE CASCADE,
	status text NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected')),
	fields jsonb,
	rejection_reason text,
	requested_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
	updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
	PRIMARY KEY (repo_type, repo_id, account),
	FOREIGN KEY (repo_type, repo_id) REFERENCES repos (type, id) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX access_requests_queue ON access_requests (repo_type, repo_id, status, requested_at, account);

CREATE TABLE repo_likes (
	repo_type text NOT NULL,
	repo_id text COLLATE "C" NOT NULL,
	account text COLLATE "C" NOT NULL REFERENCES accounts (name) ON DELETE CASCADE ON UPDATE CASCADE,
	liked_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
	PRIMARY KEY (repo_type, repo_id, account),
	FOREIGN KEY (repo_type, repo_id) REFERENCES repos (type, id) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX repo_likes_account ON repo_likes (account, liked_at DESC, repo_type, repo_id);

-- repos.likes (imported counts included) follows the likes given here, also when an account is
-- deleted (its likes go with it, through the cascade).
CREATE FUNCTION modelhub_like_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		UPDATE repos SET likes = likes + 1 WHERE type = NEW.repo_type AND id = NEW.repo_id;
	ELSE
		UPDATE repos SET likes = GREATEST(likes - 1, 0) WHERE type = OLD.repo_type AND id = OLD.repo_id;
	END IF;
	RETURN NULL;
END $$;
CREATE TRIGGER repo_likes_counted AFTER INSERT OR DELETE ON repo_likes
	FOR EACH ROW EXECUTE FUNCTION modelhub_like_counted();
`,
	},
	{
		version: 17,
		name: "pull requests and discussions",
		sql: `
-- A pull request's ref (refs/pr/N, what huggingface_hub commits to and downloads from) is a ref of its
-- own kind, named in full: revisions resolve it by name like branches and tags (whose names may not start
-- with refs/, so none can clash), and the collector keeps its commits as it keeps any ref's.
ALTER TABLE refs DROP CONSTRAINT refs_kind_check;
ALTER TABLE refs ADD CONSTRAINT refs_kind_check CHECK (kind IN ('branch', 'tag', 'pr'));

-- Discussions and pull requests share one sequence of numbers per repository, as on the public hub.
CREATE TABLE discussions (
	repo_type text NOT NULL,
	repo_id text COLLATE "C" NOT NULL,
	num integer NOT NULL CHECK (num > 0),
	title text NOT NULL,
	author text NOT NULL,
	is_pull_request boolean NOT NULL,
	status text NOT NULL CHECK (status IN ('open', 'closed', 'merged', 'draft')),
	-- Pull requests: the branch they merge into, the commit of it their ref started from (the merge
	-- base: every commit of refs/pr/N descends from it), and the commit their merge made.
	target_branch text COLLATE "C",
	base_commit text,
	merge_commit text,
	created_at timestamptz NOT NULL,
	PRIMARY KEY (repo_type, repo_id, num),
	FOREIGN KEY (repo_type, repo_id) REFERENCES repos (type, id) ON DELETE CASCADE ON UPDATE CASCADE,
	CHECK (is_pull_request = (target_branch IS NOT NULL))
);

-- What happened in a discussion, in order: comments (their latest text and edits in data), status and
-- title changes, commits pushed to a pull request's ref. The public hub's event shapes (huggingface_hub's
-- deserialize_event) are built from these rows.
CREATE TABLE discussion_events (
	repo_type text NOT NULL,
	repo_id text COLLATE "C" NOT NULL,
	num integer NOT NULL,
	seq bigserial,
	id text NOT NULL CHECK (id ~ '^[0-9a-f]{24}$'),
	type text NOT NULL CHECK (type IN ('comment', 'status-change', 'commit', 'title-change')),
	author text NOT NULL,
	created_at timestamptz NOT NULL,
	data jsonb NOT NULL,
	PRIMARY KEY (repo_type, repo_id, num, seq),
	FOREIGN KEY (repo_type, repo_id, num) REFERENCES discussions (repo_type, repo_id, num)
		ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX discussion_events_id ON discussion_events (id);
`,
	},
	{
		version: 18,
		name: "small blobs' bytes in the database",
		sql: `
-- A commit's small files (at most MODELHUB_SMALL_BLOB_MAX_BYTES, 64 KiB by default) are kept here, a
-- multi-row INSERT per batch made durable by the transaction's WAL flush, instead of a file each (write,
-- flush, rename, folder flush: 10,000 small files took 19-24 s, issue 21). The row hangs off its blob's:
-- the collector's deletion of an unreferenced blob reclaims the bytes too. Blobs stored as files before
-- stay files (src/blobs/small.ts reads the table first, then the file store).
CREATE TABLE small_blobs (
	sha256 text PRIMARY KEY REFERENCES blobs (sha256) ON DELETE CASCADE,
	bytes bytea NOT NULL
);
`,
	},
	{
		version: 19,
		name: "site admins: users who manage accounts and invites from the web",
		sql: `
-- Granted by the hub admin (the admin token or the command line) only; see services/accounts.ts.
ALTER TABLE accounts ADD COLUMN site_admin boolean NOT NULL DEFAULT false;
-- The admin pages list invites newest first.
CREATE INDEX invites_created ON invites (created_at DESC, id DESC);
`,
	},
	{
		version: 20,
		name: "mirror mode: what the upstream hub answered, and the files fetched from it",
		sql: `
-- Mirror mode (src/mirror/): repositories the hub does not have are read from an upstream hub. Ids are
-- kept lowercased (the public hub matches them case-insensitively). A repository, when it was last used
-- (least-recently-used eviction) and whether an operator pinned it.
CREATE TABLE mirror_repos (
	repo_type text NOT NULL,
	repo_id text NOT NULL,
	pinned boolean NOT NULL DEFAULT false,
	last_used_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (repo_type, repo_id)
);
-- The upstream's JSON answers (info, trees, refs, paths-info), keyed by the request; served again within
-- the TTL, forever when the request names a commit, and past the TTL while the upstream is unreachable.
CREATE TABLE mirror_answers (
	repo_type text NOT NULL,
	repo_id text NOT NULL,
	request_key text NOT NULL,
	body text NOT NULL,
	next_path text,
	fetched_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (repo_type, repo_id, request_key)
);
-- Where a branch or tag pointed when the upstream last said.
CREATE TABLE mirror_revisions (
	repo_type text NOT NULL,
	repo_id text NOT NULL,
	revision text NOT NULL,
	commit_id text NOT NULL,
	fetched_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (repo_type, repo_id, revision)
);
-- A file of an upstream commit: what the upstream said of it, and its verified bytes once fetched.
CREATE TABLE mirror_files (
	repo_type text NOT NULL,
	repo_id text NOT NULL,
	commit_id text NOT NULL,
	path text NOT NULL,
	size bigint NOT NULL,
	etag text NOT NULL,
	lfs boolean NOT NULL,
	sha256 text REFERENCES blobs (sha256),
	PRIMARY KEY (repo_type, repo_id, commit_id, path)
);
CREATE INDEX mirror_files_sha256 ON mirror_files (sha256) WHERE sha256 IS NOT NULL;
-- Every file path of an upstream commit (from its info's siblings): a path not among them is missing at
-- that commit, which can be answered while the upstream is unreachable.
CREATE TABLE mirror_commits (
	repo_type text NOT NULL,
	repo_id text NOT NULL,
	commit_id text NOT NULL,
	paths text[] NOT NULL,
	PRIMARY KEY (repo_type, repo_id, commit_id)
);
`,
	},
	{
		version: 21,
		name: "webhooks and their deliveries",
		sql: `
-- huggingface_hub's create_webhook: a user's webhook watches users, organisations and repositories
-- (watch_keys: 'user:<name>' for both account kinds, '<type>:<id>', lower-cased, for the && lookup).
CREATE TABLE webhooks (
	id text PRIMARY KEY,
	owner text COLLATE "C" NOT NULL REFERENCES accounts (name) ON DELETE CASCADE ON UPDATE CASCADE,
	url text NOT NULL,
	secret text,
	domains text[] NOT NULL,
	watched jsonb NOT NULL,
	watch_keys text[] NOT NULL,
	disabled boolean NOT NULL DEFAULT false,
	created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
	updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);
CREATE INDEX webhooks_owner ON webhooks (owner, created_at);
CREATE INDEX webhooks_watch_keys ON webhooks USING gin (watch_keys);

-- Each delivery is stored before it is sent (it survives a restart), and kept as the webhook's log.
CREATE TABLE webhook_deliveries (
	id bigserial PRIMARY KEY,
	webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
	payload jsonb NOT NULL,
	status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'dropped')),
	attempts integer NOT NULL DEFAULT 0,
	next_attempt_at timestamptz NOT NULL DEFAULT now(),
	claimed_until timestamptz,
	response_status integer,
	error text,
	created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
	finished_at timestamptz
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (webhook_id, id);
`,
	},
	{
		version: 22,
		name: "trending ties by id A to Z",
		sql: `
-- Trending lists equal scores by id A to Z (repos/listing.ts IDS_AGAINST_SORT): the index holds that
-- mixed order, so both directions page over it (the ascending one walks it backwards).
DROP INDEX repos_sort_trending_score;
CREATE INDEX repos_sort_trending_order ON repos (type, trending_score DESC, id);
`,
	},
	{
		version: 23,
		name: "commit objects of pushed commits",
		sql: `
-- A commit received by git push keeps its id, so its object's bytes (committer, time zones, message as
-- written, signatures) are kept as sent: git serving writes them back verbatim (git/objects.ts). NULL
-- for the hub's own commits, whose bytes are made from the row (repos/git.ts commitObjectBytes).
ALTER TABLE commits ADD COLUMN git_object bytea;
`,
	},
	{
		version: 24,
		name: "Xet files served from their xorbs",
		sql: `
-- A file uploaded through Xet is kept as its recipe, not as a second full copy (issue 21): its terms, in
-- order, each a chunk range of a stored xorb (src/xet/files.ts). The recipe hangs off the file's blob row:
-- the collector's deletion of an unreferenced file drops it too. A xorb a recipe names is never dropped as
-- expired (gc/store.ts), so its bytes stay referenced while the file is. Files stored as copies before
-- keep them (no recipe: read from the file store).
CREATE TABLE xet_file_terms (
	file_sha256 text NOT NULL REFERENCES blobs (sha256) ON DELETE CASCADE,
	position integer NOT NULL,
	-- where the term's bytes start in the file, and how many (uncompressed)
	file_offset bigint NOT NULL,
	size bigint NOT NULL,
	-- the xorb's stored bytes (xet_xorbs.blob_sha256) and the chunks [chunk_start, chunk_end) of it
	xorb_sha256 text NOT NULL,
	chunk_start integer NOT NULL,
	chunk_end integer NOT NULL,
	PRIMARY KEY (file_sha256, position)
);
CREATE INDEX xet_file_terms_xorb ON xet_file_terms (xorb_sha256);
`,
	},
	{
		version: 25,
		name: "mirror mode: when each fetched file was last served (least-recently-used eviction)",
		sql: `
-- MODELHUB_MIRROR_CACHE_BYTES (src/mirror/service.ts): past the budget, the stored bytes of the files
-- served longest ago are dropped (sha256 set back to NULL; fetched again on the next request), never
-- those of a pinned repository (mirror_repos.pinned, or MODELHUB_MIRROR_PINNED). NULL: never served
-- since this column exists (evicted first).
ALTER TABLE mirror_files ADD COLUMN last_used_at timestamptz;
CREATE INDEX mirror_files_last_used ON mirror_files (last_used_at NULLS FIRST) WHERE sha256 IS NOT NULL;
`,
	},
	{
		version: 26,
		name: "xet tokens for pull requests",
		sql: `
-- A Xet token asked for by someone who may only open pull requests (services/uploads.ts uploadRight):
-- its holder's right is checked again at each use, as for a writer's token.
ALTER TABLE xet_tokens ADD COLUMN upload_right text NOT NULL DEFAULT 'write'
	CHECK (upload_right IN ('write', 'pull-request'));
`,
	},
	{
		version: 27,
		name: "mirror mode: downloads of mirrored repositories this hub served",
		sql: `
-- Mirror mode's download counts (src/services/downloads.ts, src/mirror/service.ts): per repository
-- (type without the token scope, id lowercased, as mirror_repos) and UTC day. A mirrored repository's
-- info shows the upstream's figure plus these (the last 30 days, and ever), summed when it is served;
-- only downloads answered without asking the upstream for the file count here (the upstream counted the
-- others itself). No reference to mirror_repos: its rows are per scope.
CREATE TABLE mirror_download_days (
	repo_type text NOT NULL,
	repo_id text NOT NULL,
	day date NOT NULL,
	count bigint NOT NULL CHECK (count > 0),
	PRIMARY KEY (repo_type, repo_id, day)
);
-- The library a mirrored model's info names (library_name): which of its files count as downloads.
ALTER TABLE mirror_repos ADD COLUMN library_name text;
`,
	},
	{
		version: 28,
		name: "blobs by git object id (mirror mode reuses a regular file's stored bytes)",
		sql: `
-- Mirror mode (src/mirror/store.ts findStoredBlob): a regular (non-LFS) upstream file whose git blob id
-- (its ETag) a stored blob has, a local repository's or another mirrored one's, is served from those
-- bytes instead of being fetched again.
CREATE INDEX blobs_git_oid ON blobs (git_oid) WHERE git_oid IS NOT NULL;
`,
	},
	{
		version: 29,
		name: "redirects from the former ids of moved repositories",
		sql: `
-- POST /api/repos/move (services/repos.ts moveRepository): the former id (any letter case) answers a
-- redirect to the repository's id now. repo_id follows the repository (a later move updates it by
-- cascade, so a -> b -> c leaves a and b both pointing at c: one hop, never a loop); deleting the
-- repository drops its redirects.
CREATE TABLE repo_redirects (
	repo_type text NOT NULL,
	from_id text COLLATE "C" NOT NULL,
	repo_id text COLLATE "C" NOT NULL,
	created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
	FOREIGN KEY (repo_type, repo_id) REFERENCES repos (type, id) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX repo_redirects_from ON repo_redirects (repo_type, lower(from_id));
CREATE INDEX repo_redirects_repo ON repo_redirects (repo_type, repo_id);

-- A repository that takes an id (created, imported, or moved there) ends the redirect of that id, on
-- every path that writes repos.
CREATE FUNCTION modelhub_redirect_taken() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM repo_redirects WHERE repo_type = NEW.type AND lower(from_id) = lower(NEW.id);
	RETURN NULL;
END
$$;
CREATE TRIGGER repo_redirects_taken AFTER INSERT OR UPDATE OF id ON repos
	FOR EACH ROW EXECUTE FUNCTION modelhub_redirect_taken();
`,
	},
];

/** An arbitrary constant: the advisory lock that serialises migrations when several hubs start at once. */
const MIGRATION_LOCK = 7_261_950_431;

/** Applies the migrations not yet recorded, all in one transaction. Returns the versions applied. */
export async function migrate(
	db: Database,
	migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
	return db.transaction(async (tx) => {
		await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
		// A migration's statement may run for minutes on a large database (copying a column of a million
		// rows, building an index): the pool's 30 s cut-off for requests (postgres.ts) would undo it.
		await tx.exec("SET LOCAL statement_timeout = 0");
		await tx.exec(`CREATE TABLE IF NOT EXISTS modelhub_migrations (
	version integer PRIMARY KEY,
	name text NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now()
)`);
		const done = await tx.query<{ version: number }>("SELECT version FROM modelhub_migrations");
		const applied = new Set(done.rows.map((row) => Number(row.version)));
		const newest = Math.max(0, ...applied);
		const known = Math.max(0, ...migrations.map((m) => m.version));
		if (newest > known) {
			throw new Error(
				`the database schema is at version ${newest}, newer than this hub knows (${known}); upgrade the hub`,
			);
		}
		const ran: number[] = [];
		for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
			if (applied.has(migration.version)) continue;
			await tx.exec(migration.sql);
			await tx.query("INSERT INTO modelhub_migrations (version, name) VALUES ($1, $2)", [
				migration.version,
				migration.name,
			]);
			ran.push(migration.version);
		}
		return ran;
	});
}
