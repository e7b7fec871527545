import { ensureBuild } from "./ensure-build";

/** The first half of `npm start`: the build made if missing or older than a source; package.json then runs it. */
ensureBuild();
