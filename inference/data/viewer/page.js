// Kibitz replay viewer: displays the data Kibitz embedded in #kibitz-data; computes nothing about the deal.
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("kibitz-data").textContent);
  const SUITS = ["S", "H", "D", "C"];
  const SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const SEAT_NAME = { N: "North", E: "East", S: "South", W: "West" };
  const RANKS = "AKQJT98765432";
  const QUANTITY_MAX = { S: 13, H: 13, D: 13, C: 13, HCP: 37 };
  const steps = DATA.steps;
  let index = 0;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v; else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }
  function rankText(r) { return r === "T" ? "10" : r; }
  function suitSym(s) {
    return el("span", { class: "suit-" + s + (s === "H" || s === "D" ? " red" : "") },
      el("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[s] }), el("span", { class: "vh", text: SUIT_NAME[s] + " " }));
  }
  function card(code, cls) {
    const s = code[0], r = code[1];
    return el("span", { class: "card " + (cls || ""), "data-card": code }, suitSym(s), rankText(r));
  }
  function who(seat) { return DATA.names[seat] + " (" + seat + ")"; }
  function seatTitle(seat) {
    const role = seat === DATA.viewer ? "viewer" : seat === DATA.dummy ? "dummy" : seat === DATA.declarer ? "declarer" : "";
    return SEAT_NAME[seat] + " \u2014 " + DATA.names[seat] + (role && role !== DATA.names[seat] && role !== "viewer" ? ", " + role : "");
  }
  function clear(id) { const n = document.getElementById(id); n.replaceChildren(); return n; }

  function renderMeta() {
    const bits = [DATA.contract + " by " + SEAT_NAME[DATA.declarer], "seen by " + SEAT_NAME[DATA.viewer] + " (" + DATA.names[DATA.viewer] + ")"];
    if (DATA.vulnerable) bits.push("vulnerable: " + DATA.vulnerable);
    if (DATA.checks) bits.push("expectations: " + DATA.checks.passed + " of " + DATA.checks.total + " hold");
    bits.push(DATA.source);
    document.getElementById("meta").textContent = bits.join(" \u00b7 ");
  }

  function renderTable(st) {
    const box = clear("table");
    for (const seat of ["N", "W", "E", "S"]) {
      const held = st.held[seat], played = st.played[seat];
      const hand = el("div", { id: "seat-" + seat, class: "hand" + (held === null ? " concealed" : "") + (st.to_play === seat ? " on-turn" : ""),
                               "data-seat": seat });
      hand.append(el("h3", {}, seatTitle(seat), held === null ? el("span", { class: "vh", text: ", concealed" }) : null));
      for (const s of SUITS) {
        const line = el("div", { class: "suitline" }, suitSym(s), " ");
        const cards = (held || []).concat(played).filter(c => c[0] === s);
        cards.sort((a, b) => RANKS.indexOf(a[1]) - RANKS.indexOf(b[1]));
        for (const c of cards) {
          const gone = played.includes(c);
          line.append(el("span", { class: gone ? "played" : "held", title: gone ? "played" : "" },
            rankText(c[1]), gone ? el("span", { class: "vh", text: " (played)" }) : null), " ");
        }
        if (held === null) {
          line.append(el("span", { class: "unknown", text: "\u2026" }));
        } else if (!cards.length) {
          line.append(el("span", { "aria-label": "none", text: "\u2014" }));
        }
        if (st.voids[seat].includes(s)) line.append(el("span", { class: "out", text: " shown out" }));
        hand.append(line);
      }
      if (held === null) {
        const left = 13 - played.length;
        hand.append(el("div", { class: "unknown", text: left + " unknown card" + (left === 1 ? "" : "s") + " left" }));
      }
      box.append(hand);
    }
    const trick = el("div", { class: "trick", role: "group", "aria-label": st.table.complete ? "last trick" : "trick in progress" });
    st.table.cards.forEach(([seat, c], i) => {
      const cls = "t-" + seat + (i === 0 ? " lead" : "") + (st.table.winner === seat ? " winner" : "");
      trick.append(el("div", { class: cls, "data-seat": seat }, el("span", { class: "vh", text: SEAT_NAME[seat] + ": " }), card(c)));
    });
    if (st.table.complete && st.table.winner) trick.setAttribute("aria-label", "last trick, won by " + SEAT_NAME[st.table.winner]);
    box.append(trick);
    document.getElementById("won").textContent = "Tricks won: N-S " + st.won.NS + ", E-W " + st.won.EW +
      (st.table.complete && st.table.winner ? " \u00b7 last trick won by " + SEAT_NAME[st.table.winner] + " (" + DATA.names[st.table.winner] + ")" : "");
  }

  function rangeCell(seat, q, view, range, before) {
    const max = QUANTITY_MAX[q];
    if (!range) return el("td", { class: "empty", text: "empty view" });
    const [lo, hi] = range;
    const moved = before && (before[0] !== lo || before[1] !== hi);
    const bar = el("div", { class: "bar " + view, "aria-hidden": "true" },
      el("div", { class: "fill", style: "left:" + (100 * lo / (max + 1)) + "%;width:" + (100 * (hi - lo + 1) / (max + 1)) + "%" }));
    const num = el("span", { class: "num" + (moved ? " moved" : ""), "data-bound": true, "data-seat": seat, "data-q": q,
                             "data-view": view, "data-lo": lo, "data-hi": hi,
                             title: moved ? "moved from " + before[0] + "\u2013" + before[1] : "" },
      lo + "\u2013" + hi, moved ? el("span", { class: "vh", text: " (moved from " + before[0] + " to " + before[1] + ")" }) : null);
    return el("td", {}, el("div", { class: "rangecell" }, bar, num));
  }

  function renderBounds(st, prev) {
    const box = clear("bounds");
    for (const seat of st.concealed) {
      const table = el("table", {},
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "dealt" }), el("th", { scope: "col", text: "lawful" }),
          el("th", { scope: "col", text: "agreement" }))));
      const body = el("tbody");
      for (const q of SUITS.concat(["HCP"])) {
        const label = q === "HCP" ? el("span", { text: "HCP" }) : suitSym(q);
        const before = prev && prev.lawful[seat] ? prev.lawful[seat][q] : null;
        const beforeA = prev && prev.agreement && prev.agreement[seat] ? prev.agreement[seat][q] : null;
        body.append(el("tr", { "data-seat": seat, "data-q": q }, el("th", { scope: "row" }, label),
          rangeCell(seat, q, "lawful", st.lawful[seat][q], before),
          rangeCell(seat, q, "agreement", st.agreement ? st.agreement[seat][q] : null, beforeA)));
      }
      table.append(body);
      box.append(el("div", { class: "bounds-seat" }, el("h3", { text: who(seat) }), table));
    }
    if (!st.concealed.length) box.append(el("p", { class: "empty", text: "No concealed hand." }));
    if (st.agreement_note) box.append(el("p", { class: "hint", text: "Agreement view: " + st.agreement_note }));
  }

  function heatColour(pct) {
    const p = Number(pct) / 100;
    return "hsl(var(--hot) 60% " + (97 - 55 * p) + "%)";
  }

  let oddsView = "lawful";
  function renderOdds(st) {
    const choice = document.getElementById("odds-view");
    const has = v => !!st.odds[v];
    choice.hidden = !has("agreement") && !has("weighted") && !st.inferences.length;
    document.getElementById("view-agreement").disabled = !has("agreement");
    document.getElementById("view-weighted").disabled = !has("weighted");
    const view = has(oddsView) ? oddsView : "lawful";
    const odds = st.odds[view];
    document.body.dataset.oddsView = view;
    for (const b of choice.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.view === view));
    document.getElementById("layouts").textContent = BigInt(odds.layouts).toLocaleString("en") + " " + view;
    const box = clear("heat");
    for (const seat of st.concealed) {
      const table = el("table", {}, el("caption", { text: who(seat) + ": chance of holding each unseen card" }));
      const head = el("tr", {}, el("td"));
      for (const r of RANKS) head.append(el("th", { scope: "col", text: rankText(r) }));
      table.append(el("thead", {}, head));
      const body = el("tbody");
      for (const s of SUITS) {
        const row = el("tr", {}, el("th", { scope: "row" }, suitSym(s)));
        for (const r of RANKS) {
          const code = s + r, held = odds.holder[code];
          if (!held) { row.append(el("td", { class: "seen", "aria-label": SUIT_NAME[s] + " " + rankText(r) + ": seen", text: "\u00b7" })); continue; }
          const [frac, pct] = held[seat] || ["0/1", "0.0"];
          const fg = Number(pct) > 60 ? "#fff" : "inherit";
          row.append(el("td", { "data-card": code, "data-seat": seat, "data-p": frac, "data-view": view, tabindex: 0,
                                title: SYMBOL[s] + rankText(r) + " with " + SEAT_NAME[seat] + ": " + frac + " = " + pct + "%",
                                "aria-label": rankText(r) + " of " + SUIT_NAME[s] + " with " + SEAT_NAME[seat] + ": " + pct + " percent, exactly " + frac,
                                style: "background:" + heatColour(pct) + ";color:" + fg },
            el("span", { class: "pct", text: pct })));
        }
        body.append(row);
      }
      table.append(body);
      box.append(el("div", { class: "heat" }, table));
    }
    const splits = clear("splits");
    splits.className = "splits";
    for (const s of SUITS) {
      const rows = odds.split[s] || [];
      const list = el("ol", {});
      const more = el("ol", {});
      rows.forEach((row, i) => {
        const label = st.concealed.map((seat, k) => seat + " " + row.lengths[k]).join(" \u2013 ");
        const item = el("li", { "data-view": view, "data-suit": s, "data-split": row.lengths.join("-"), "data-p": row.p, title: row.p },
          el("span", { class: "lengths", text: label }),
          el("div", { class: "bar", "aria-hidden": "true" }, el("div", { class: "fill", style: "left:0;width:" + row.pct + "%" })),
          el("span", { class: "num", text: row.pct + "%" }));
        (i < 6 ? list : more).append(item);
      });
      const block = el("div", {}, el("h3", {}, suitSym(s), " " + SUIT_NAME[s] + " (unseen: " + rows.length + " split" + (rows.length === 1 ? "" : "s") + ")"), list);
      if (more.childElementCount) block.append(el("details", {}, el("summary", { text: more.childElementCount + " more" }), more));
      splits.append(block);
    }
  }

  function renderAuction() {
    const box = clear("auction");
    const calls = DATA.auction || [];
    if (!calls.length) { box.append(el("p", { class: "empty", text: "No auction recorded." })); return; }
    const claimList = c => c.claims && c.claims.length ? el("ul", {}, c.claims.map(t => el("li", { text: t }))) : null;
    if (DATA.dealer) {
      const order = ["W", "N", "E", "S"];
      const table = el("table", { class: "auction" }, el("thead", {}, el("tr", {}, order.map(s => el("th", { scope: "col", text: SEAT_NAME[s] })))));
      const body = el("tbody");
      let row = el("tr");
      for (let i = 0; i < order.indexOf(DATA.dealer); i++) row.append(el("td"));
      for (const c of calls) {
        if (row.childElementCount === 4) { body.append(row); row = el("tr"); }
        row.append(el("td", { "data-seat": c.seat }, el("span", { class: "call" }, callText(c.call)), claimList(c)));
      }
      body.append(row);
      table.append(body);
      box.append(table);
    } else {
      box.append(el("p", { class: "hint", text: "The inferences the scenario draws from calls:" }));
      box.append(el("ul", { class: "calls" }, calls.map(c => el("li", {}, who(c.seat) + ": " + c.call, claimList(c)))));
    }
  }
  function callText(call) {
    const m = /^([1-7])(NT|N|S|H|D|C)$/i.exec(call);
    if (!m) return call;
    const strain = m[2].toUpperCase();
    return strain === "NT" || strain === "N" ? m[1] + "NT" : el("span", {}, m[1], suitSym(strain));
  }

  function renderInferences(st) {
    const box = clear("inferences");
    if (!st.inferences.length) { box.append(el("p", { class: "empty", text: "No inference in force." })); return; }
    const changed = {};
    for (const c of st.changed) changed[c.inference] = c;
    const table = el("table", { class: "inferences" }, el("thead", {}, el("tr", {},
      el("th", { scope: "col", text: "inference" }), el("th", { scope: "col", text: "from" }),
      el("th", { scope: "col", class: "claim-col", text: "claim in force" }), el("th", { scope: "col", text: "tag" }),
      el("th", { scope: "col", text: "status" }))));
    const body = el("tbody");
    for (const inf of st.inferences) {
      const ch = changed[inf.name];
      const status = el("span", { class: "status status-" + inf.status, text: inf.status + (inf.level ? " (fallback " + inf.level + ")" : "") });
      const reason = ch ? el("div", { class: "reason" }, el("strong", { text: "changed: " }), ch.old + " \u2192 " + ch.new + ", because " + ch.reason) :
        (inf.note ? el("div", { class: "reason", text: inf.note }) : null);
      body.append(el("tr", { class: ch ? "changed" : "", "data-inference": inf.name, "data-status": inf.status, "data-level": inf.level },
        el("td", { text: inf.name }), el("td", { text: who(inf.by) + (inf.action ? ", " + inf.action : "") }),
        el("td", { class: "claim-col" }, el("code", { text: inf.in_force })), el("td", { text: inf.tag }),
        el("td", {}, status, reason)));
    }
    table.append(body);
    box.append(table);
  }

  function show(i) {
    index = Math.max(0, Math.min(steps.length - 1, i));
    const st = steps[index], prev = index > 0 ? steps[index - 1] : null;
    document.getElementById("slider").value = String(index);
    document.getElementById("slider").setAttribute("aria-valuetext", st.label);
    document.getElementById("position").textContent = index === 0 ? "start" : "card " + index + " of " + (steps.length - 1);
    document.getElementById("step-label").textContent = st.label;
    document.body.dataset.step = String(index);
    renderTable(st);
    renderBounds(st, prev);
    renderOdds(st);
    renderInferences(st);
    document.getElementById("narration").textContent = st.narration.join("\n");
    if (history.replaceState) history.replaceState(null, "", "#" + index);
  }

  const slider = document.getElementById("slider");
  slider.max = String(steps.length - 1);
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.getElementById("prev").addEventListener("click", () => show(index - 1));
  document.getElementById("next").addEventListener("click", () => show(index + 1));
  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("last").addEventListener("click", () => show(steps.length - 1));
  for (const button of document.querySelectorAll("#odds-view button")) {
    button.addEventListener("click", () => { oddsView = button.dataset.view; renderOdds(steps[index]); });
  }
  document.addEventListener("keydown", e => {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return;  // the slider steps itself
    const go = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: steps.length - 1 }[e.key];
    if (go === undefined) return;
    e.preventDefault();
    show(go);
  });
  function fromHash() {
    const wanted = Number((location.hash || "#0").slice(1));
    show(Number.isInteger(wanted) ? wanted : 0);
  }
  window.addEventListener("hashchange", fromHash);
  renderMeta();
  renderAuction();
  fromHash();
})();
