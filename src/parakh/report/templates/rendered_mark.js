document.body.setAttribute('data-rendered', window.parakhErrors.length ? 'errors' : 'ok');
