declare module "virtual:akhbar/islands-entry" {
  const entry: import("../../vite-plugins/islands-entry").IslandsEntry | null;
  export default entry;
}
