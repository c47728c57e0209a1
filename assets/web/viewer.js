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
  if (video) {
    video.addEventListener('timeupdate', show);
    video.addEventListener('seeked', show);
  }
})();
