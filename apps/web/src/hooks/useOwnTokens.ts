import { useCallback, useEffect, useState } from "react";
import { createOwnToken, listOwnTokens, revokeOwnToken, type OwnToken } from "../api/auth";

export type TokenScope = OwnToken["scope"];

export interface OwnTokens {
	tokens: OwnToken[] | undefined;
	loadError: string | undefined;
	/** The token just created, with its secret: shown once, until the next action. */
	created: OwnToken | undefined;
	/** What the last action did, for the live region ("Revoked laptop."). */
	status: string;
	busy: boolean;
	create(name: string, scope: TokenScope): Promise<string | undefined>;
	revoke(token: OwnToken): Promise<void>;
}

/** The signed-in user's access tokens on this hub: the list, and creating and revoking them. */
export function useOwnTokens(): OwnTokens {
	const [tokens, setTokens] = useState<OwnToken[]>();
	const [loadError, setLoadError] = useState<string>();
	const [created, setCreated] = useState<OwnToken>();
	const [status, setStatus] = useState("");
	const [busy, setBusy] = useState(false);

	const show = useCallback((list: OwnToken[]) => {
		setTokens(list);
		setLoadError(undefined);
	}, []);
	const reload = useCallback(async () => {
		try {
			show(await listOwnTokens({ baseUrl: "" }));
		} catch (error) {
			setLoadError(error instanceof Error ? error.message : String(error));
		}
	}, [show]);

	// The first load sets state only when its answer arrives (set-state-in-effect), never after unmount.
	useEffect(() => {
		const controller = new AbortController();
		listOwnTokens({ baseUrl: "", signal: controller.signal }).then(show, (error: unknown) => {
			if (!controller.signal.aborted) setLoadError(error instanceof Error ? error.message : String(error));
		});
		return () => controller.abort();
	}, [show]);

	const create = useCallback(
		async (name: string, scope: TokenScope): Promise<string | undefined> => {
			setBusy(true);
			try {
				const token = await createOwnToken({ name: name.trim(), scope }, { baseUrl: "" });
				setCreated(token);
				setStatus(`Created the ${scope} token “${token.name}”.`);
				await reload();
				return undefined;
			} catch (error) {
				return error instanceof Error ? error.message : String(error);
			} finally {
				setBusy(false);
			}
		},
		[reload],
	);

	const revoke = useCallback(
		async (token: OwnToken) => {
			setBusy(true);
			try {
				await revokeOwnToken(token.id, { baseUrl: "" });
				if (created?.id === token.id) setCreated(undefined);
				setStatus(`Revoked “${token.name}”: it no longer works.`);
				await reload();
			} catch (error) {
				setStatus(
					`Could not revoke “${token.name}”: ${error instanceof Error ? error.message : String(error)}`,
				);
			} finally {
				setBusy(false);
			}
		},
		[reload, created],
	);

	return { tokens, loadError, created, status, busy, create, revoke };
}
