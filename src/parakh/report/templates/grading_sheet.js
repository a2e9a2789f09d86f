(function () {
  'use strict';
  // The grading sheet (grading_sheet.html.j2): one answer at a time, keyboard first. Grades
  // live in localStorage under the sheet and grader, so a reload or a later visit resumes;
  // the download is BlindGrade JSONL (parakh.schema), one row per graded answer and metric.
  var root = document.getElementById('sheet');
  var sheet = root.getAttribute('data-sheet');
  var grader = root.getAttribute('data-grader');
  var storeKey = 'parakh-grading:' + sheet + ':' + grader;
  var answers = [].slice.call(document.querySelectorAll('article.answer'));
  var metrics = [].slice.call(document.querySelectorAll('section.metric'));
  var state = load();

  function load() {
    var empty = {position: 0, metric: 0, grades: {}};
    try {
      var kept = JSON.parse(localStorage.getItem(storeKey) || 'null');
      return kept && kept.grades ? kept : empty;
    } catch (e) {
      return empty;
    }
  }

  function save() {
    localStorage.setItem(storeKey, JSON.stringify(state));
  }

  function clamp(value, size) {
    return Math.max(0, Math.min(size - 1, value));
  }

  function current() {
    return answers[state.position].getAttribute('data-answer');
  }

  function graded(answerId) {
    var grades = state.grades[answerId] || {};
    return metrics.every(function (m) { return grades[m.getAttribute('data-metric')]; });
  }

  function show() {
    state.position = clamp(state.position, answers.length);
    state.metric = clamp(state.metric, metrics.length);
    var grades = state.grades[current()] || {};
    answers.forEach(function (a, i) { a.hidden = i !== state.position; });
    metrics.forEach(function (m, i) {
      m.classList.toggle('current', i === state.metric);
      var given = grades[m.getAttribute('data-metric')];
      [].forEach.call(m.querySelectorAll('.levels > li'), function (level) {
        var score = Number(level.getAttribute('data-score'));
        level.classList.toggle('chosen', !!given && given.score === score);
      });
    });
    var done = answers.filter(function (a) { return graded(a.getAttribute('data-answer')); });
    document.getElementById('progress').textContent =
      done.length + ' of ' + answers.length + ' answers graded';
  }

  function grade(score, metricIndex) {
    var metric = metrics[metricIndex];
    var low = Number(metric.getAttribute('data-min'));
    var high = Number(metric.getAttribute('data-max'));
    if (score < low || score > high) return;
    var grades = state.grades[current()] = state.grades[current()] || {};
    grades[metric.getAttribute('data-metric')] = {score: score, at: new Date().toISOString()};
    if (metricIndex < metrics.length - 1) {
      state.metric = metricIndex + 1;
    } else if (state.position < answers.length - 1) {
      state.position += 1;
      state.metric = 0;
    }
    save();
    show();
  }

  function move(answerStep, metricStep) {
    state.position += answerStep;
    state.metric = answerStep ? 0 : state.metric + metricStep;
    show();
    save();
  }

  var keys = {
    ArrowRight: [1, 0], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowUp: [0, -1]
  };
  document.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (/^[0-9]$/.test(e.key)) {
      grade(Number(e.key), state.metric);
    } else if (keys[e.key]) {
      move(keys[e.key][0], keys[e.key][1]);
    } else {
      return;
    }
    e.preventDefault();
  });
  metrics.forEach(function (m, i) {
    [].forEach.call(m.querySelectorAll('.levels > li'), function (level) {
      level.addEventListener('click', function () {
        grade(Number(level.getAttribute('data-score')), i);
      });
    });
  });

  function rows() {
    var lines = [];
    answers.forEach(function (a) {
      var grades = state.grades[a.getAttribute('data-answer')] || {};
      metrics.forEach(function (m) {
        var given = grades[m.getAttribute('data-metric')];
        if (!given) return;
        lines.push(JSON.stringify({
          sheet: sheet,
          rater: grader,
          question_id: a.getAttribute('data-question'),
          answer_id: a.getAttribute('data-answer'),
          metric: m.getAttribute('data-metric'),
          score: given.score,
          scale_min: Number(m.getAttribute('data-min')),
          scale_max: Number(m.getAttribute('data-max')),
          language: a.getAttribute('data-language'),
          graded_at: given.at
        }));
      });
    });
    return lines;
  }

  document.getElementById('download').addEventListener('click', function () {
    var lines = rows();
    var blob = new Blob([lines.join('\n') + (lines.length ? '\n' : '')],
      {type: 'application/x-ndjson'});
    var link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = sheet + '-' + grader + '.grades.jsonl';
    document.body.appendChild(link);
    link.click();
    link.remove();
  });
  show();
})();
