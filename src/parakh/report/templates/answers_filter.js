function parakhFilter(){
  var lang=document.getElementById('f-language').value;
  var cat=document.getElementById('f-category').value;
  var metric=document.getElementById('f-metric').value;
  var lo=parseFloat(document.getElementById('f-min').value);
  var hi=parseFloat(document.getElementById('f-max').value);
  if(isNaN(lo)){lo=0;} if(isNaN(hi)){hi=1;}
  var shown=0, items=document.querySelectorAll('article.q');
  items.forEach(function(q){
    var ok=(!lang||q.getAttribute('data-language')===lang);
    var cats=JSON.parse(q.getAttribute('data-categories'));
    ok=ok&&(!cat||cats.indexOf(cat)>=0);
    if(ok&&metric){
      var scores=JSON.parse(q.getAttribute('data-scores'))[metric]||{};
      var any=false;
      Object.keys(scores).forEach(function(m){var v=scores[m];if(v>=lo&&v<=hi){any=true;}});
      ok=any;
    }
    q.hidden=!ok; if(ok){shown++;}
  });
  document.getElementById('f-count').textContent=shown+' of '+items.length+' questions';
}
['f-language','f-category','f-metric','f-min','f-max'].forEach(function(id){
  var el=document.getElementById(id);
  el.addEventListener('change',parakhFilter); el.addEventListener('input',parakhFilter);
});
parakhFilter();
