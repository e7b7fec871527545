/** Set in the environment of a forked process that serves no pages: the views process (decision 042) or the sender process (decision 043). */
export const ROLE_ENV = "AKHBAR_PROCESS";
