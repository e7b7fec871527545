declare module "autocannon" {
  type Result = {
    requests: { average: number };
    latency: { p50: number; p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  };
  type Options = { url: string; connections: number; duration: number; headers?: Record<string, string> };
  export default function autocannon(options: Options, done: (error: Error | null, result: Result) => void): void;
}
