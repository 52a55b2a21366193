// The overview's charts (areas/overview.tsx): each canvas carries its figures in data-chart; the
// table beside it shows the same figures to everyone (screen readers, no script). Chart.js comes
// from /console/assets/chart.js, loaded before this file (both deferred, in order).
(() => {
  const Chart = window.Chart;
  if (!Chart) return;
  const COLOURS = ['#0b57d0', '#b3261e', '#8a5a00', '#146c2e', '#6f42c1', '#57606a'];
  Chart.defaults.font.family = 'system-ui, sans-serif';
  Chart.defaults.animation = false;
  for (const canvas of document.querySelectorAll('canvas[data-chart]')) {
    const spec = JSON.parse(canvas.dataset.chart);
    const doughnut = spec.kind === 'doughnut';
    new Chart(canvas, {
      type: spec.kind,
      data: {
        labels: spec.labels,
        datasets: spec.series.map((series, i) => ({
          label: series.label,
          data: series.values,
          backgroundColor: doughnut ? COLOURS.slice(0, series.values.length) : COLOURS[i % COLOURS.length],
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        plugins: { legend: { position: 'bottom' } },
        ...(doughnut ? {} : { scales: { x: { stacked: !spec.sideBySide }, y: { beginAtZero: true, stacked: !spec.sideBySide, ...(spec.percent ? { ticks: { callback: (value) => `${value} %` } } : {}) } } }),
      },
    });
  }
})();
