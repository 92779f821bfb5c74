/**
 * Carries cookies from one response to the next request, like a browser: a Set-Cookie with
 * Max-Age=0 or a past Expires removes the cookie.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Takes the Set-Cookie headers of a response; returns the response for chaining. */
  take(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";").map((part) => part.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const removed = attributes.some((a) => {
        const [key, v = ""] = a.split("=");
        if (key.toLowerCase() === "max-age") return Number(v) <= 0;
        if (key.toLowerCase() === "expires") return new Date(v).getTime() <= Date.now();
        return false;
      });
      if (removed) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** The value for a Cookie request header. */
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** The Set-Cookie line for one cookie name in a response, if any. */
export function setCookieFor(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}
