/** Sends a form with XMLHttpRequest, the only browser API that reports upload progress. */
export function sendWithProgress(
  url: string,
  method: "POST" | "PUT",
  body: FormData,
  onProgress: (fraction: number) => void,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, url);
    request.setRequestHeader("Accept", "application/json");
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      let json: unknown = null;
      try {
        json = JSON.parse(request.responseText);
      } catch {
        json = null;
      }
      resolve({ status: request.status, json });
    });
    request.addEventListener("error", () => reject(new Error("network")));
    request.send(body);
  });
}
