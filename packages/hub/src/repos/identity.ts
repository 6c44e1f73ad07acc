// Moved to the ground floor (src/repo-identity.ts): this re-export only keeps routes/uploads/lfs.ts's
// import working until that file's own change points it there; then this file goes.
export { repoPathName } from "../repo-identity.js";
