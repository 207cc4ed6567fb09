import { describe, expect, test } from "vitest";
import { newId, parseId, sandboxSuffix, uuidv7 } from "./ids.js";

describe("ids (conventions §1.3)", () => {
  test("ids are <Type>:<lowercase canonical uuid> and UUIDv7", () => {
    const id = newId("Customer");
    expect(id).toMatch(/^Customer:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test("a generated id never ends in 00 plus a digit, so it never triggers a sandbox suffix rule", () => {
    for (let i = 0; i < 20_000; i++) expect(uuidv7()).not.toMatch(/00\d$/);
  });

  test("ids made by one process sort in creation order, even within one millisecond", () => {
    const ids = Array.from({ length: 5000 }, () => uuidv7(Date.UTC(2026, 0, 1)));
    expect([...ids].sort()).toEqual(ids);
  });

  test("UUIDv7 carries the creation time in its first 48 bits", () => {
    const uuid = uuidv7(Date.UTC(2030, 0, 1));
    expect(Number.parseInt(uuid.replace(/-/g, "").slice(0, 12), 16)).toBe(Date.UTC(2030, 0, 1));
  });

  test.each([
    ["Customer:not-a-uuid"],
    ["Card:01a2031b-3af6-74b7-af52-45f72eabe452"],
    ["Customer:01A2031B-3AF6-74B7-AF52-45F72EABE452"],
    ["01a2031b-3af6-74b7-af52-45f72eabe452"],
    [""],
    [42],
  ])("parseId refuses %j for Customer", (raw) => {
    expect(parseId("Customer", raw)).toBeNull();
  });

  test("parseId accepts a well-formed id of its type", () => {
    const id = newId("Card");
    expect(parseId("Card", id)).toBe(id);
  });

  test("the sandbox suffix is the last three characters", () => {
    expect(sandboxSuffix("Jane Doe 002")).toBe("002");
    expect(sandboxSuffix(undefined)).toBe("");
  });
});
