import { accountStorage } from "../../api/account";
import { useApiOptions } from "../../hooks/useApiOptions";
import { useResource } from "../../hooks/useResource";
import { formatBytes } from "../../view/format";

/**
 * One line: the bytes a namespace's repositories hold (a user's or an organisation's) and its quota
 * (`GET /api/accounts/{name}/storage`, answered to the account and to an organisation's members). The
 * line keeps its height while loading, so the page does not move when it arrives; on an error it stays
 * blank (the hub says nothing to those who may not know).
 */
export function StorageLine({ name }: { name: string }) {
	const api = useApiOptions();
	const storage = useResource((signal) => accountStorage(name, { ...api, signal }), [api, name]);
	const text =
		storage.status === "ready"
			? `Storage: ${formatBytes(storage.data.usedBytes)} used${
					storage.data.limitBytes === null ? " (no quota)" : ` of ${formatBytes(storage.data.limitBytes)}`
				}`
			: "\u00a0";
	return (
		<p className="muted small" data-testid="account-storage" aria-busy={storage.status === "loading"}>
			{text}
		</p>
	);
}
