/**
 * A throw-away certificate for the protocol servers' HTTPS listener, valid for every provider host, so
 * that curl keeps speaking real HTTPS (with SNI and certificate checks) when `--connect-to` sends it to
 * 127.0.0.1. Made with the system's `openssl`; the key never leaves the run's temporary folder.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface Certificate {
	key: Buffer;
	cert: Buffer;
	/** The certificate's file, which curl trusts as its CA bundle. */
	certFile: string;
}

export function makeCertificate(dir: string, hosts: readonly string[]): Certificate {
	const keyFile = join(dir, "server.key");
	const certFile = join(dir, "server.crt");
	execFileSync(
		"openssl",
		[
			"req",
			"-x509",
			"-newkey",
			"ec",
			"-pkeyopt",
			"ec_paramgen_curve:prime256v1",
			"-nodes",
			"-days",
			"2",
			"-subj",
			"/CN=ModelHub protocol servers",
			"-addext",
			`subjectAltName=${hosts.map((host) => `DNS:${host}`).join(",")}`,
			"-keyout",
			keyFile,
			"-out",
			certFile,
		],
		{ stdio: "pipe" },
	);
	return { key: readFileSync(keyFile), cert: readFileSync(certFile), certFile };
}
