/** A throwaway PostgreSQL cluster run from Debian's binaries, on a random port and a private socket. */
export interface PostgresCluster {
	/** A connection string for `database` (created by createDatabase). */
	url(database: string): string;
	createDatabase(name: string): Promise<string>;
	/** Stops the server (fast shutdown: connections are cut), keeping its data, to test outages. */
	pause(): void;
	/** Starts it again on the same port and data after pause(). */
	resume(): void;
	stop(): void;
}

export function findPostgresBin(): string | undefined;
export function startPostgresCluster(settings?: Record<string, string | number>): Promise<PostgresCluster>;
