// The round API over fetch (spec/round-api.md). A network failure (no answer at all) is
// thrown as LinkDown: the caller keeps the write and its key to send again.

export class LinkDown extends Error {}

export class Api {
  constructor({ base, csrf }) {
    this.base = base;
    this.csrf = csrf;
  }

  async request(method, path, body) {
    let response;
    try {
      response = await fetch(this.base + path, {
        method,
        credentials: "same-origin",
        headers: body === undefined
          ? { Accept: "application/json" }
          : { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": this.csrf },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new LinkDown(String(err));
    }
    let data = null;
    try {
      data = await response.json();
    } catch (err) {
      data = null;
    }
    return { status: response.status, body: data };
  }

  get(path) {
    return this.request("GET", path);
  }

  post(path, body) {
    return this.request("POST", path, body);
  }
}
