var hm=document.getElementById('heatmap-metric');
if(hm){hm.addEventListener('change',function(){
document.querySelectorAll('.heatmap-grid').forEach(function(g){
g.hidden=g.getAttribute('data-metric')!==hm.value;});});}
