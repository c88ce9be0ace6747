#include <png.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec/1e6;}
struct mem{unsigned char*d;size_t n,c;};
static void wr(png_structp p,png_bytep d,png_size_t n){struct mem*m=png_get_io_ptr(p);if(m->n+n>m->c){m->c=(m->n+n)*2;m->d=realloc(m->d,m->c);}memcpy(m->d+m->n,d,n);m->n+=n;}
static void fl(png_structp p){}
static double enc(unsigned char*px,int w,int h,int level,int strat,int filter,int mem,size_t*len){
 double best=1e9;for(int k=0;k<7;k++){struct mem m={0};double t=now();
 png_structp p=png_create_write_struct(PNG_LIBPNG_VER_STRING,0,0,0);png_infop i=png_create_info_struct(p);
 png_set_write_fn(p,&m,wr,fl);png_set_IHDR(p,i,w,h,8,PNG_COLOR_TYPE_RGB,0,0,0);
 png_set_compression_level(p,level);png_set_compression_strategy(p,strat);png_set_compression_mem_level(p,mem);png_set_filter(p,0,filter);
 png_write_info(p,i);for(int y=0;y<h;y++)png_write_row(p,px+(size_t)y*w*3);png_write_end(p,0);png_destroy_write_struct(&p,&i);
 t=now()-t;if(t<best)best=t;*len=m.n;free(m.d);}return best;}
int main(int c,char**v){png_image im={0};im.version=PNG_IMAGE_VERSION;png_image_begin_read_from_file(&im,v[1]);im.format=PNG_FORMAT_RGB;unsigned char*px=malloc(PNG_IMAGE_SIZE(im));png_image_finish_read(&im,0,px,0,0);
 struct{const char*n;int l,s,f,m;}V[]={{"l1 default none m5",1,Z_DEFAULT_STRATEGY,PNG_FILTER_NONE,5},{"l1 rle none",1,Z_RLE,PNG_FILTER_NONE,5},{"l1 rle up",1,Z_RLE,PNG_FILTER_UP,5},{"l1 rle sub",1,Z_RLE,PNG_FILTER_SUB,5},{"l1 default up",1,Z_DEFAULT_STRATEGY,PNG_FILTER_UP,5},{"l1 huffman none",1,Z_HUFFMAN_ONLY,PNG_FILTER_NONE,5},{"l1 default none m9",1,Z_DEFAULT_STRATEGY,PNG_FILTER_NONE,9},{"l2 default none",2,Z_DEFAULT_STRATEGY,PNG_FILTER_NONE,5}};
 for(int k=0;k<8;k++){size_t len;double t=enc(px,im.width,im.height,V[k].l,V[k].s,V[k].f,V[k].m,&len);printf("%-22s %6.2f ms %8zu bytes\n",V[k].n,t,len);}}
