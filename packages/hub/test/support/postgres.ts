// The cluster helper is plain JavaScript (postgres-cluster.mjs) so that the benchmarks share it.
export { findPostgresBin, startPostgresCluster, type PostgresCluster } from "./postgres-cluster.mjs";
