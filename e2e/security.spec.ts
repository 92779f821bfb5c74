import { expect, test } from "./support/fixtures";

test("a post from another site is refused with 403", async ({ request }) => {
  const response = await request.post("/login", {
    form: { email: "student01@example.org" },
    headers: { Origin: "https://evil.example" },
  });
  expect(response.status()).toBe(403);
  expect(await response.text()).toContain("annet nettsted");
});

test("a post that says neither where it comes from (no Origin, no Referer) is refused with 403", async ({
  request,
}) => {
  const response = await request.post("/login", { form: { email: "student01@example.org" } });
  expect(response.status()).toBe(403);
});

test("pages carry the security headers and an enforced nonce CSP", async ({ request }) => {
  const response = await request.get("/login");
  const headers = response.headers();
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  expect(headers["content-security-policy"]).toContain("object-src 'none'");
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).toContain("base-uri 'none'");
  expect(headers["content-security-policy-report-only"]).toBeUndefined();
  expect(headers["referrer-policy"]).toBe("same-origin");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["cache-control"]).toBe("no-store");
  const nonce = /'nonce-([^']+)'/.exec(headers["content-security-policy"])![1];
  const html = await response.text();
  for (const script of html.match(/<script[^>]*>/g) ?? []) expect(script).toContain(`nonce="${nonce}"`);
});

test("the development outbox is closed when mail goes through SMTP", async ({ request }) => {
  expect((await request.get("/dev/outbox")).status()).toBe(404);
});
