// kfbench viewer: seek the case video from any [data-seek] button or a click on the timeline,
// and keep the playhead and the time label in step. No network, no dependencies.
(() => {
  const video = document.getElementById('video');
  const status = document.getElementById('seek-status');
  const head = document.getElementById('playhead');
  const timeline = document.getElementById('timeline');
  const wrap = timeline ? timeline.closest('.tl-wrap') : null;
  const duration = wrap ? Number(wrap.dataset.duration) : 0;
  const show = () => {
    if (!video) return;
    if (status) status.textContent = `at ${video.currentTime.toFixed(2)} s`;
    if (head && duration > 0)
      head.style.left = `${(100 * Math.min(1, video.currentTime / duration)).toFixed(3)}%`;
  };
  const seek = (t) => {
    if (!video || !Number.isFinite(t)) return;
    video.pause();
    video.currentTime = Math.max(0, t);
    document.body.dataset.lastSeek = t.toFixed(3);
    show();
  };
  document.addEventListener('click', (e) => {
    const target = e.target instanceof Element ? e.target : null;
    if (!target) return;
    const button = target.closest('[data-seek]');
    if (button) {
      e.preventDefault();
      seek(Number(button.getAttribute('data-seek')));
      return;
    }
    if (timeline && target.closest('#timeline')) {
      const r = timeline.getBoundingClientRect();
      seek((duration * (e.clientX - r.left)) / r.width);
    }
  });
  // a click on a score table's column header re-sorts its rows by that column (numbers
  // numerically, highest first; text A–Z; a second click reverses); a row with a colspan (the case total) stays last
  document.addEventListener('click', (e) => {
    const th = e.target instanceof Element ? e.target.closest('table.scores thead th') : null;
    if (!th) return;
    const table = th.closest('table');
    const body = table?.tBodies[0];
    if (!body) return;
    const col = [...th.parentElement.children].indexOf(th);
    const rows = [...body.rows].filter((r) => ![...r.cells].some((c) => c.colSpan > 1));
    const fixed = [...body.rows].filter((r) => !rows.includes(r));
    const value = (r) => {
      const text = r.cells[col]?.textContent.trim() ?? '';
      const n = Number.parseFloat(text);
      return Number.isFinite(n) && /^[-+.\d]/.test(text) ? n : text;
    };
    // first click: numbers best (highest) first, text A–Z; the same header again reverses
    const again = table.dataset.sortCol === String(col);
    const desc = again ? table.dataset.sortDir !== 'desc' : rows.some((r) => typeof value(r) === 'number');
    rows.sort((a, b) => {
      const x = value(a);
      const y = value(b);
      const c =
        typeof x === 'number' && typeof y === 'number'
          ? x - y
          : typeof x === 'number'
            ? 1
            : typeof y === 'number'
              ? -1
              : String(x).localeCompare(String(y));
      return desc ? -c : c;
    });
    for (const r of [...rows, ...fixed]) body.appendChild(r);
    table.dataset.sortCol = String(col);
    table.dataset.sortDir = desc ? 'desc' : 'asc';
  });
  // the scroll cue: a box that scrolls sideways says on which side there is more to see
  // (data-more="left", "right" or both; the CSS fades that side), kept up to date on scroll and resize
  const scrollers = [
    ...document.querySelectorAll('table.scores, table.cases, table.films, table.verdicts, ol.row, .scroll-x'),
  ];
  const cue = (el) => {
    const more = [];
    if (el.scrollLeft > 1) more.push('left');
    if (el.scrollLeft + el.clientWidth < el.scrollWidth - 1) more.push('right');
    if (more.length) el.dataset.more = more.join(' ');
    else delete el.dataset.more;
  };
  const observer =
    typeof ResizeObserver === 'function'
      ? new ResizeObserver((es) => {
          for (const e of es) cue(e.target);
        })
      : null;
  for (const el of scrollers) {
    cue(el);
    el.addEventListener('scroll', () => cue(el), { passive: true });
    observer?.observe(el);
  }
  window.addEventListener('load', () => {
    for (const el of scrollers) cue(el);
  });
  if (video) {
    video.addEventListener('timeupdate', show);
    video.addEventListener('seeked', show);
  }
})();
