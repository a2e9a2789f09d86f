window.parakhErrors=[];
window.addEventListener('error',function(e){window.parakhErrors.push(String(e.message));
document.documentElement.setAttribute('data-js-errors',String(window.parakhErrors.length));});
