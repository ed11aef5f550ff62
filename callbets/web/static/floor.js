// callbets floor: the live page.  Every word and name goes in as text (textContent,
// createElement): nothing read from a table is ever parsed as HTML.
"use strict";

(function () {
  const body = document.body;
  const words = JSON.parse(body.dataset.words);
  const columns = words.floor_columns.split("|");
  const [TABLE, CROUPIER, HOUSE, ROUND, BETS, STAKED, PRISON, WAIT, LAST] = columns;
  const page = body.dataset.page;
  const key = body.dataset.key || "";
  let shown = -1;
  let busy = false;
  let again = false;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function fill(template, fields) {
    return template.replace(/\{(\w+)\}/g, (m, name) => (name in fields ? String(fields[name]) : m));
  }

  function field(dl, label, value) {
    dl.append(el("dt", "", label), el("dd", "", value));
  }

  function lines(list, cls) {
    const box = el("div", cls || "lines");
    for (const line of list) box.append(el("div", "line", line));
    return box;
  }

  function card(t, link) {
    const c = el("article", "card");
    if (t.error) c.classList.add("unreadable");
    if (t.flags.length) c.classList.add("flagged");
    const h = el("h2", "name");
    if (link && !t.error) {
      const a = el("a", "", t.table);
      a.href = "/table/" + encodeURIComponent(t.key);
      h.append(a);
    } else {
      h.textContent = t.table;
    }
    c.append(h);
    if (t.error) {
      c.append(el("p", "error", t.said_error));
      return c;
    }
    const betting = el("p", "betting " + t.betting, t.said_betting);
    c.append(betting);
    const dl = el("dl");
    field(dl, HOUSE, t.house);
    field(dl, CROUPIER, t.croupier);
    field(dl, ROUND, t.round);
    field(dl, STAKED, t.staked);
    field(dl, PRISON, t.prison);
    field(dl, WAIT, t.pending);
    c.append(dl);
    const last = el("p", "last");
    last.append(el("span", "label", LAST));
    t.last_numbers.forEach((n, i) => last.append(el("span", "number " + t.last_colours[i], n)));
    c.append(last);
    if (t.said_flags.length) {
      const ul = el("ul", "flags");
      for (const f of t.said_flags) ul.append(el("li", "flag", f));
      c.append(ul);
    }
    return c;
  }

  function renderFloor(data) {
    const totals = {tables: data.tables.length, open: data.open_tables, staked: data.staked,
                    prison: data.prison, flags: data.flags};
    document.getElementById("totals").textContent = fill(words.web_totals, totals);
    const box = document.getElementById("tables");
    if (!data.tables.length) {
      box.replaceChildren(el("p", "empty", words.web_no_tables));
      return;
    }
    box.replaceChildren(...data.tables.map((t) => card(t, true)));
  }

  function renderTable(floor, d) {
    const t = floor.tables.find((x) => x.key === key);
    document.getElementById("card").replaceChildren(t ? card(t, false) : el("p", "error", d.said_error || ""));
    document.getElementById("layout-title").textContent = words.web_layout;
    document.getElementById("bets-title").textContent = words.web_bets;
    document.getElementById("spins-title").textContent = words.web_spins;
    document.getElementById("audit-title").textContent = words.web_audit;
    document.getElementById("report-title").textContent = words.web_report;
    const picture = document.getElementById("picture");
    if (d.said_error) {
      picture.hidden = true;
      for (const id of ["bets", "spins", "audit", "report"]) document.getElementById(id).replaceChildren();
      return;
    }
    picture.hidden = false;
    picture.alt = words.web_picture_alt;
    picture.dataset.chips = String(d.chips.length);
    const src = "/table/" + encodeURIComponent(key) + "/picture.svg?v=" + d.version;
    if (picture.getAttribute("src") !== src) picture.src = src;
    const bets = [];
    for (const p of d.bets) {
      const who = el("div", "player");
      who.append(el("h3", "", p.player));
      who.append(p.lines.length ? lines(p.lines, "lines readback") : el("p", "dim", words.web_no_bets));
      bets.push(who);
    }
    if (d.pending.length) bets.push(lines(d.pending, "lines pending"));
    if (!bets.length) bets.push(el("p", "dim", words.web_no_bets));
    document.getElementById("bets").replaceChildren(...bets);
    const spins = d.spins.map((s) => {
      const box = el("div", "spin");
      box.append(el("span", "number " + s.colour, s.number));
      box.append(lines(s.lines));
      return box;
    });
    document.getElementById("spins").replaceChildren(...(spins.length ? spins : [el("p", "dim", words.web_no_spins)]));
    const audit = [el("p", d.audit.verifies ? "ok" : "flag", d.audit.said)];
    if (d.audit.problems) audit.push(lines(d.audit.problems, "lines flags"));
    document.getElementById("audit").replaceChildren(...audit);
    document.getElementById("report").replaceChildren(d.report ? lines(d.report) : el("p", "dim", words.web_no_spins));
  }

  // paths on the page's origin: a page opened as http://user:token@host/ has its
  // credentials in its own address, which fetch refuses to take into a request
  const here = window.location.origin;

  async function getJson(path) {
    const r = await fetch(here + path, {cache: "no-store", credentials: "same-origin"});
    if (!r.ok) throw new Error(String(r.status));
    return r.json();
  }

  // the floor as the last event brought it (null: read it from /api/floor)
  let pushed = null;

  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      do {
        again = false;
        const floor = pushed || await getJson("/api/floor");
        pushed = null;
        if (page === "table") {
          renderTable(floor, await getJson("/api/table/" + encodeURIComponent(key)));
        } else {
          renderFloor(floor);
        }
        shown = floor.version;
        body.dataset.version = String(shown);
        document.getElementById("live").textContent = words.web_live;
        document.getElementById("live").className = "live";
      } while (again);
    } catch (e) {
      document.getElementById("live").textContent = words.web_lost;
      document.getElementById("live").className = "live lost";
    } finally {
      busy = false;
    }
  }

  const events = new EventSource(here + "/events");
  // each event carries the whole floor (the JSON of /api/floor): a floor page draws it
  // as it comes; a table page then reads its own table's JSON
  events.addEventListener("floor", (e) => {
    let floor;
    try { floor = JSON.parse(e.data); } catch (err) { floor = null; }
    if (floor && floor.version === shown) return;
    pushed = floor;
    refresh();
  });
  events.onerror = () => {
    document.getElementById("live").textContent = words.web_lost;
    document.getElementById("live").className = "live lost";
  };
  refresh();
})();
